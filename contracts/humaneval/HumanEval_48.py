"""HumanEval/48 is_palindrome: any string, including the empty string."""


def pre(text: str) -> bool:
    return True
