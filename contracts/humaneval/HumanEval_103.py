"""HumanEval/103 rounded_avg: two positive integers n and m up to 2**52 (n > m allowed, giving -1)."""


def pre(n: int, m: int) -> bool:
    # The docstring says "You are given two positive integers n and m".
    # ambiguous: the natural solution takes the average as a float (total / count); up to
    # 2**52 that float is exact (an integer or a half), beyond it the rounding depends on
    # float arithmetic.
    return 1 <= n <= 2**52 and 1 <= m <= 2**52
