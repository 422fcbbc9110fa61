"""Fixed ground truth for HumanEval/32 (find_zero).

category: performance
witness: [[-1000000, 1]]
reason: the original's bisection never stops when the root it closes in on lies beyond 2**19,
where neighbouring floats are more than its 1e-10 stopping width apart; this one stops once the
interval can no longer shrink and returns the better end.
"""


def find_zero(xs: list):
    begin, end = -1., 1.
    while poly(xs, begin) * poly(xs, end) > 0:
        begin *= 2.0
        end *= 2.0
    while end - begin > 1e-10:
        center = (begin + end) / 2.0
        if center == begin or center == end:
            # begin and end are neighbouring floats: the interval cannot shrink any further.
            return begin if abs(poly(xs, begin)) <= abs(poly(xs, end)) else end
        if poly(xs, center) * poly(xs, begin) > 0:
            begin = center
        else:
            end = center
    return begin
