"""Plain reference for Mbpp/583 (catalan_number).

reason: the original's recurrence C(n) = sum C(i) C(n - 1 - i), memoised so that it takes
n**2 steps; it recurses n frames deep, so a larger n is left to the stress tier.
"""


def catalan_number(num):
    memo = {}

    def go(k):
        if k <= 1:
            return 1
        if k not in memo:
            memo[k] = sum(go(i) * go(k - i - 1) for i in range(k))
        return memo[k]

    return go(num)
