"""HumanEval/86 anti_shuffle: any string (words are separated by spaces)."""


def pre(s: str) -> bool:
    return True
