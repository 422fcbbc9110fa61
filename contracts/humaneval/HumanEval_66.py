"""HumanEval/66 digitSum: any ASCII string (the docstring sums ASCII codes), may be empty."""


def pre(s: str) -> bool:
    # The docstring sums "ASCII codes": characters outside ASCII have none.
    return s.isascii()
