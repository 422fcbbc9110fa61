"""HumanEval/132 is_nested: a string (possibly empty) containing only square brackets."""


def pre(string: str) -> bool:
    return all(ch in "[]" for ch in string)
