"""HumanEval/92 any_int: three numbers, each an int or a float (non-integers give False)."""


def pre(x: float | int, y: float | int, z: float | int) -> bool:
    # Whole-number floats (3.0) stay: the dataset's own test any_int(3.0, 4, 7) == False
    # settles that a float is not an integer here.
    args = (x, y, z)
    if any(isinstance(v, float) for v in args):
        # ambiguous: magnitudes near the float range: with a float among the numbers, sums
        # mix floats and ints, so every argument keeps abs(v) <= 1e50 (this also rules out
        # NaN and inf).
        return all(abs(v) <= 1e50 for v in args)
    return True
