"""Plain reference for HumanEval/55 (fib).

reason: the textbook recurrence fib(n) = fib(n - 1) + fib(n - 2), memoised so that it takes
n steps; it recurses n frames deep, so a larger n is left to the stress tier.
"""


def fib(n: int):
    memo = {0: 0, 1: 1}

    def go(k):
        if k not in memo:
            memo[k] = go(k - 1) + go(k - 2)
        return memo[k]

    return go(n)
