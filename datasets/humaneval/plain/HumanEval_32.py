"""Plain reference for HumanEval/32 (find_zero).

reason: the fixed ground truth is already the straightforward solution (the original's doubling
and bisection, stopped once the interval cannot shrink), filed as performance only because the
original never ends; this is the same code, so that a performance fix has its plain reference.
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
