"""HumanEval/91 is_bored: any string of words; sentences end with '.', '?' or '!'."""


def pre(S: str) -> bool:
    return True
