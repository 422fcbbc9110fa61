"""HumanEval/32 find_zero: an even number (>= 2) of int coefficients (|c| <= 1e50), the leading one non-zero."""

from typing import List


def pre(xs: List[int]) -> bool:
    # The docstring: "an even number of coefficients and largest non zero coefficient" (odd
    # degree with a non-zero leading coefficient: that is what guarantees a real root).
    if len(xs) < 2 or len(xs) % 2 != 0 or xs[-1] == 0:
        return False
    # ambiguous: magnitudes near the float range (poly() computes in floats).
    if not all(abs(c) <= 1e50 for c in xs):
        return False
    lead, degree = abs(xs[-1]), len(xs) - 1
    # The smallest j with |xs[degree - i]| <= lead * 2**(j * i) for all i >= 1 (Fujiwara's
    # root bound; j <= 167 as |c| < 2**167): every root lies within 2**(j + 1), and at
    # 2**(j + 2) the leading term outweighs all others threefold, so doubling [-1, 1] until
    # the signs differ stops at 2**k with k <= j + 2.
    j = 0
    while not all(abs(xs[degree - i]) <= lead << (j * i) for i in range(1, degree + 1)):
        j += 1
        if lead.bit_length() + (j + 2) * degree > 1000:
            return False  # the leading term alone fails the float-range check below
    k = j + 2
    # poly() (in the prompt) evaluates coeff * math.pow(x, i), which raises OverflowError
    # beyond the float range: every term at |x| <= 2**k stays below 2**1000.
    # ambiguous: magnitudes near the float range (the terms of poly() where the roots are sought).
    return all(abs(c).bit_length() + k * i <= 1000 for i, c in enumerate(xs))
