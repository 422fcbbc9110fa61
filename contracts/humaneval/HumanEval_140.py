"""HumanEval/140 fix_spaces: any string (possibly empty); only ' ' counts as a space."""


def pre(text: str) -> bool:
    return True
