"""HumanEval/112 reverse_delete: two arbitrary strings s and c (characters of c are deleted from s)."""


def pre(s: str, c: str) -> bool:
    return True
