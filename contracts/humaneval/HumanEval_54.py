"""HumanEval/54 same_chars: two words, i.e. non-empty strings of lowercase ASCII letters."""


def pre(s0: str, s1: str) -> bool:
    # Mixed case would make "same characters" ambiguous (is 'a' the same as 'A'?).
    return (len(s0) > 0 and len(s1) > 0
            and all("a" <= ch <= "z" for ch in s0)
            and all("a" <= ch <= "z" for ch in s1))
