"""Fixed ground truth for HumanEval/127 (intersection).

category: performance
witness: [(0, 615259), (0, 648871)]
reason: the original tests the length's primality by trial division over every number
below it (10**6 steps for a length near 10**6); divisors up to sqrt(length) suffice.
"""


def intersection(interval1, interval2):
    length = min(interval1[1], interval2[1]) - max(interval1[0], interval2[0])
    if length < 2:
        return "NO"
    divisor = 2
    while divisor * divisor <= length:
        if length % divisor == 0:
            return "NO"
        divisor += 1
    return "YES"
