"""Fixed ground truth for HumanEval/103 (rounded_avg).

category: performance
witness: [1, 499999]
reason: the original adds up every integer from n to m one by one (10**6 steps for
m - n = 10**6); their average is (n + m) / 2. Ties round to even, as the docstring's
rounded_avg(20, 33) => "0b11010" (26.5 -> 26) shows.
"""

from fractions import Fraction


def rounded_avg(n, m):
    if m < n:
        return -1
    return bin(round(Fraction(n + m, 2)))
