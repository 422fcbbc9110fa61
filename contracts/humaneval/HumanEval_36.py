"""HumanEval/36 fizz_buzz: an integer n with 0 <= n <= 10**5."""


def pre(n: int) -> bool:
    # ambiguous: for n < 0 the "integers less than n divisible by 11 or 13" are infinitely
    # many (-77 among them); the docstring does not say to count from 0.
    # Counting is linear in the value of n: the upper bound keeps each test cheap (the base
    # inputs' largest value, 10**5).
    return 0 <= n <= 10**5
