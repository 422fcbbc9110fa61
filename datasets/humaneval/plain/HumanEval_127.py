"""Plain reference for HumanEval/127 (intersection).

reason: the fixed ground truth stops trial division at the square root of the length; the
plain form tries every divisor below the length, as the original does.
"""


def intersection(interval1, interval2):
    length = min(interval1[1], interval2[1]) - max(interval1[0], interval2[0])
    if length < 2:
        return "NO"
    for divisor in range(2, length):
        if length % divisor == 0:
            return "NO"
    return "YES"
