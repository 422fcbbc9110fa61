"""HumanEval/32 find_zero: an even number (>= 2) of int coefficients, the leading one non-zero."""

from typing import List


def pre(xs: List[int]) -> bool:
    # Even length means odd degree, and a non-zero last (leading) coefficient keeps it
    # so: that is what guarantees a real root.
    if len(xs) < 2 or len(xs) % 2 != 0 or xs[-1] == 0:
        return False
    lead, degree = abs(xs[-1]), len(xs) - 1
    # Find the smallest j with |xs[degree - i]| <= lead * 2**(j * i) for all i >= 1
    # (Fujiwara's root bound): then every root lies within 2**(j + 1), and at 2**(j + 2)
    # the leading term outweighs all others threefold, so the reference's doubling of
    # [-1, 1] stops at 2**k with k <= j + 2. It then bisects down to a width of 1e-10,
    # and beyond 2**19 floats are spaced wider than that (the bisection would never
    # stop): require k <= 18.
    for j in range(17):
        if all(abs(xs[degree - i]) <= lead << (j * i) for i in range(1, degree + 1)):
            break
    else:
        return False
    k = j + 2
    # poly() evaluates coeff * math.pow(x, i) with |x| <= 2**k: keep every term well
    # inside the float range (math.pow raises OverflowError beyond it).
    return all(abs(c).bit_length() + k * i <= 1000 for i, c in enumerate(xs))
