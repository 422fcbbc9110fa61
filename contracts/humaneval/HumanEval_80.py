"""HumanEval/80 is_happy: a string of lowercase ASCII letters (any length, including < 3)."""


def pre(s: str) -> bool:
    return all("a" <= ch <= "z" for ch in s)
