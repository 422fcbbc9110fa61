"""Plain reference for Mbpp/389 (find_lucas).

reason: the textbook recurrence L(n) = L(n - 1) + L(n - 2), memoised so that it takes
n steps; it recurses n frames deep, so a larger n is left to the stress tier.
"""


def find_lucas(n):
    memo = {0: 2, 1: 1}

    def go(k):
        if k not in memo:
            memo[k] = go(k - 1) + go(k - 2)
        return memo[k]

    return go(n)
