"""Fixed ground truth for Mbpp/162 (sum_series).

category: performance
witness: [2000000]
reason: the original adds the n // 2 + 1 terms n, n - 2, n - 4, ... one by one (10**6
steps for n = 2 * 10**6); with k = n // 2 their sum is (k + 1) (n - k).
"""


def sum_series(n):
    if n <= 0:
        return 0
    k = n // 2
    return (k + 1) * (n - k)
