"""HumanEval/155 even_odd_count: any integer (negative allowed, the sign is ignored)."""


def pre(num: int) -> bool:
    # The reference calls str(abs(num)), which CPython refuses above 4300 digits.
    return -10**4000 < num < 10**4000
