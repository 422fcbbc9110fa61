"""HumanEval/66 digitSum: any ASCII string (the docstring sums ASCII codes), may be empty."""


def pre(s: str) -> bool:
    return s.isascii()
