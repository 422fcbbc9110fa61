"""HumanEval/23 strlen: any string; the empty string is explicitly covered."""


def pre(string: str) -> bool:
    return True
