"""HumanEval/155 even_odd_count: any integer (negative allowed, the sign is ignored)."""


def pre(num: int) -> bool:
    # Size bound only: below 10**4000 in magnitude, num stays under CPython's 4300-digit
    # limit for str(), which a natural solution calls to read digits.
    return -10**4000 < num < 10**4000
