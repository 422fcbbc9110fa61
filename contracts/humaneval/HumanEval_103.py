"""HumanEval/103 rounded_avg: two positive integers n and m (n > m allowed, giving -1)."""


def pre(n: int, m: int) -> bool:
    # The fixed ground truth averages exactly (a Fraction), so any size is fine.
    return n >= 1 and m >= 1
