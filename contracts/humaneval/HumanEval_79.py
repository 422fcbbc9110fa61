"""HumanEval/79 decimal_to_binary: a non-negative integer."""


def pre(decimal: int) -> bool:
    # bin() of a negative number is "-0b...", which the reference mangles.
    return decimal >= 0
