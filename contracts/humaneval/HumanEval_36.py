"""HumanEval/36 fizz_buzz: an integer n with 0 <= n <= 10**5."""


def pre(n: int) -> bool:
    # For n < 0 the "integers less than n divisible by 11 or 13" are infinitely many.
    # The reference walks every integer below n, linear in the value of n: bound it to the
    # base inputs' largest value (10**5), which stays within the oracle's line budget.
    return 0 <= n <= 10**5
