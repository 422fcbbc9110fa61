"""HumanEval/161 solve: any string (possibly empty)."""


def pre(s: str) -> bool:
    return True
