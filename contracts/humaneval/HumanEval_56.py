"""HumanEval/56 correct_bracketing: a string of "<" and ">" only (may be empty)."""


def pre(brackets: str) -> bool:
    # The docstring: "brackets is a string of "<" and ">"".
    return all(b in "<>" for b in brackets)
