"""Fixed ground truth for Mbpp/739 (find_Index).

category: edge-case
witness: [32]
reason: the original rounds the float square root of 2 * 10 ** (n - 1), which is not
exact past 2**53: find_Index(32) gives 4472135954999580, but the smallest k with
k (k + 1) / 2 >= 10 ** 31 is 4472135954999579 (for n = 97 it is
1414213562373095048801688724209698078569671875377), and past n = 309 math.pow overflows.
The fix finds that k in integers: k (k + 1) >= 2 * 10 ** (n - 1) for k = isqrt(2 * 10
** (n - 1)) or the next one (found by review of the kills: samples with exact integer
arithmetic say so).
"""

from math import isqrt


def find_Index(n):
    if n < 1:
        raise ValueError("n must be positive")
    target = 2 * 10 ** (n - 1)
    k = isqrt(target)
    if k * (k + 1) < target:
        k += 1
    return k
