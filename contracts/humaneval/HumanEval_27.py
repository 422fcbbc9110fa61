"""HumanEval/27 flip_case: any string (may be empty)."""


def pre(string: str) -> bool:
    return True
