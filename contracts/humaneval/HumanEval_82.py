"""HumanEval/82 prime_length: any string (only its length matters)."""


def pre(string: str) -> bool:
    return True
