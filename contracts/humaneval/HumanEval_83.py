"""HumanEval/83 starts_one_ends: a positive integer n (number of digits)."""


def pre(n: int) -> bool:
    # The answer is 18 * 10**(n - 2): bound n so the result stays a reasonable size.
    return 1 <= n <= 1000
