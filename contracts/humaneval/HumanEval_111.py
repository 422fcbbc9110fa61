"""HumanEval/111 histogram: '' or single lowercase letters separated by single spaces."""

_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")


def pre(test: str) -> bool:
    if test == "":
        return True
    return all(len(token) == 1 and token in _LOWER for token in test.split(" "))
