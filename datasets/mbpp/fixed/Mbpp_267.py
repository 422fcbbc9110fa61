"""Fixed ground truth for Mbpp/267 (square_Sum).

category: edge-case
witness: [189039]
reason: the original computes n * (4 n^2 - 1) / 3 with float division: past 2**53 the
quotient is rounded (square_Sum(189039) gives 9007265625892080.0, the sum is
9007265625892079); the numerator is always a multiple of 3, so integer division is exact
(found by the jury: nine base-passing samples of two families agree).
"""


def square_Sum(n):
    return n * (4 * n * n - 1) // 3
