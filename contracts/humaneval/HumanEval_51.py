"""HumanEval/51 remove_vowels: any string, including the empty string and newlines."""


def pre(text: str) -> bool:
    return True
