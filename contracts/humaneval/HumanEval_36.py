"""HumanEval/36 fizz_buzz: an integer n with 0 <= n <= 10**6."""


def pre(n: int) -> bool:
    # For n < 0 the "integers less than n divisible by 11 or 13" are infinitely many.
    # The reference walks every integer below n, linear in the value of n: bound it
    # (the base inputs go up to 10**5).
    return 0 <= n <= 10**6
