"""HumanEval/72 will_it_fly: q a list of non-negative integer weights, w a non-negative maximum weight."""

from typing import List


def pre(q: List[int], w: int) -> bool:
    # The docstring: q's elements are weights and w is "the maximum possible weight", so none is negative.
    return w >= 0 and all(v >= 0 for v in q)
