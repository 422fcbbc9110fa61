"""HumanEval/79 decimal_to_binary: a non-negative integer."""


def pre(decimal: int) -> bool:
    # The docstring: each character of the binary form "will be '0' or '1'", so a negative
    # number (which needs a sign) has no such form.
    return decimal >= 0
