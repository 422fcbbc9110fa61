"""Plain reference for HumanEval/103 (rounded_avg).

reason: the fixed ground truth uses the closed form (n + m) / 2; the straightforward solution
is the original's, adding up every integer from n to m, with the average taken exactly
instead of as a float (ties to even, as the fixed ground truth).
"""

from fractions import Fraction


def rounded_avg(n, m):
    if m < n:
        return -1
    summation = 0
    for i in range(n, m + 1):
        summation += i
    return bin(round(Fraction(summation, m - n + 1)))
