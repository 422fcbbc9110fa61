"""HumanEval/10 make_palindrome: any string; the empty string is explicitly covered."""


def pre(string: str) -> bool:
    return True
