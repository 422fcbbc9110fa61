"""HumanEval/32 find_zero: an even number (>= 2) of int coefficients, the leading one non-zero."""

from typing import List


def pre(xs: List[int]) -> bool:
    # Even length means odd degree, and a non-zero last (leading) coefficient keeps it
    # so: that is what guarantees a real root.
    if len(xs) < 2 or len(xs) % 2 != 0 or xs[-1] == 0:
        return False
    lead = abs(xs[-1])
    rest = max(abs(c) for c in xs[:-1])
    # Every root lies below Cauchy's bound 1 + rest / lead. The reference doubles
    # [-1, 1] until the signs at its ends differ, at the latest at 2**k >= twice that
    # bound, then bisects down to a width of 1e-10. Beyond 2**19 floats are spaced
    # wider than 1e-10 (the bisection would never stop), so require k <= 18.
    k = 0
    while 2**k * lead < 2 * (lead + rest):
        k += 1
        if k > 18:
            return False
    # poly() evaluates coeff * math.pow(x, i) with |x| <= 2**k: keep every term
    # well inside the float range (math.pow raises OverflowError beyond it).
    return all(abs(c).bit_length() + k * i <= 1000 for i, c in enumerate(xs))
