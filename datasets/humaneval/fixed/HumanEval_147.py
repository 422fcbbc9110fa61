"""Fixed ground truth for HumanEval/147 (get_max_triples).

category: performance
witness: [138]
reason: the original enumerates all O(n**3) triples (1.3 million for n = 200); a[i] mod 3
is 0 when i mod 3 == 2 and 1 otherwise, so a sum is a multiple of 3 exactly when its three
terms share a residue: C(zeros, 3) + C(ones, 3).
"""

from math import comb


def get_max_triples(n):
    zeros = (n + 1) // 3  # the i in 1..n with i % 3 == 2
    ones = n - zeros
    return comb(zeros, 3) + comb(ones, 3)
