"""Fixed ground truth for Mbpp/583 (catalan_number).

category: performance
witness: [12]
reason: the original recurses on C(n) = sum C(i) C(n - 1 - i) without memoising, which
takes about 3**n calls (catalan_number(12): more than a million lines); the closed form
C(n) = binomial(2n, n) / (n + 1) is exact in integers.
"""

from math import comb


def catalan_number(num):
    if num <= 1:
        return 1
    return comb(2 * num, num) // (num + 1)
