"""HumanEval/15 string_sequence: a non-negative integer n, at most 10**4."""


def pre(n: int) -> bool:
    # ambiguous: "from 0 upto n" for n < 0 ('' as nothing to count up to, '0', or counting down?).
    if n < 0:
        return False
    # The output grows linearly with the value of n: the bound keeps each expected output small.
    return n <= 10**4
