"""HumanEval/111 histogram: '' or single lowercase letters separated by single spaces."""

_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")


def pre(test: str) -> bool:
    if test == "":
        return True
    tokens = test.split(" ")
    # ambiguous: empty fields (two spaces in a row, a leading or trailing space).
    if "" in tokens:
        return False
    # The docstring says "a space separated lowercase letters" (a-z in its examples).
    return all(len(token) == 1 and token in _LOWER for token in tokens)
