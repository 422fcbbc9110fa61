"""HumanEval/98 count_upper: any string, possibly empty."""


def pre(s: str) -> bool:
    return True
