"""Plain reference for Mbpp/103 (eulerian_num).

reason: the original's recurrence, memoised so that it takes n m steps; it recurses
n frames deep, so a larger n is left to the stress tier.
"""


def eulerian_num(n, m):
    memo = {}

    def go(n, m):
        if m >= n or n == 0:
            return 0
        if m == 0:
            return 1
        if (n, m) not in memo:
            memo[n, m] = (n - m) * go(n - 1, m - 1) + (m + 1) * go(n - 1, m)
        return memo[n, m]

    return go(n, m)
