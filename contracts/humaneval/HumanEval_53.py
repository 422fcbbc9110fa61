"""HumanEval/53 add: any two integers."""


def pre(x: int, y: int) -> bool:
    return True
