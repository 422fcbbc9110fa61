"""Plain reference for HumanEval/13 (greatest_common_divisor).

reason: Euclid's algorithm is textbook recursion, so written recursively it leaves out of plus
the inputs that need more frames than a natural recursive solution gets.
"""


def greatest_common_divisor(a: int, b: int) -> int:
    if b == 0:
        return a
    return greatest_common_divisor(b, a % b)
