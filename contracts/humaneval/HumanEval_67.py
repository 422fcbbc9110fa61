"""HumanEval/67 fruit_distribution: s is "<A> apples and <B> oranges" (A, B non-negative decimals) and n >= A + B."""

import re

_FORMAT = re.compile(r"([0-9]+) apples and ([0-9]+) oranges")


def pre(s: str, n: int) -> bool:
    # The docstring: the string "represents a number of apples and oranges", as in its examples.
    match = _FORMAT.fullmatch(s)
    if match is None:
        return False
    # The basket holds the apples and oranges, so there cannot be fewer fruits in total.
    return n >= int(match.group(1)) + int(match.group(2))
