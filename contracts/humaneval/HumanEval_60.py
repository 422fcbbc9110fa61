"""HumanEval/60 sum_to_n: a non-negative integer n (n = 0 is the empty sum)."""


def pre(n: int) -> bool:
    # ambiguous: "from 1 to n" for n < 0 (the empty sum 0, or 1 + 0 - 1 - ... down to n?).
    if n < 0:
        return False
    # Size only: n <= 10**5 keeps each test cheap (a loop from 1 to n is a natural solution).
    return n <= 10**5
