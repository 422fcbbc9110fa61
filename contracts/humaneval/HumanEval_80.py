"""HumanEval/80 is_happy: a string of lowercase ASCII letters (any length, including < 3)."""


def pre(s: str) -> bool:
    # The docstring speaks of "letters" (ASCII, as in its examples).
    # ambiguous: letters of different case (are 'a' and 'A' distinct letters?).
    return all("a" <= ch <= "z" for ch in s)
