"""HumanEval/54 same_chars: two words, i.e. non-empty strings of lowercase ASCII letters."""


def pre(s0: str, s1: str) -> bool:
    # The docstring: "two words" (non-empty, made of letters; ASCII as in its examples).
    if not (s0 and s1 and s0.isascii() and s1.isascii() and s0.isalpha() and s1.isalpha()):
        return False
    # ambiguous: letters of different case (is 'a' the same character as 'A'?).
    return s0.islower() and s1.islower()
