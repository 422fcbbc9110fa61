"""HumanEval/15 string_sequence: a non-negative integer n, at most 10**4."""


def pre(n: int) -> bool:
    # The numbers run from 0 up to n, so n < 0 is meaningless. The output grows
    # linearly with the value of n: bound it so each expected output stays small.
    return 0 <= n <= 10**4
