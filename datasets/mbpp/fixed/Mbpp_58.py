"""Fixed ground truth for Mbpp/58 (opposite_Signs).

category: edge-case
witness: [-1, 0]
reason: the original tests (x ^ y) < 0, which calls 0 positive: opposite_Signs(-1, 0) is
True, but 0 has no sign, so no number has the opposite sign of 0 (found by the jury: ten
base-passing samples of two families say False).
"""


def opposite_Signs(x, y):
    return (x < 0 < y) or (y < 0 < x)
