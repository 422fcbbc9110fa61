"""HumanEval/160 do_algebra: operators from + - * // ** and non-negative operands, one more operand than operators."""

from typing import List

_OPERATORS = ("+", "-", "*", "//", "**")
# Generous size bounds (see pre).
_MAX_OPERATORS = 1000
_MAX_BITS = 10**5
_MAX_OPERAND = 10**4000


def _tower_bits(chain: List[int]) -> int:
    """An upper bound on the bits of chain[0] ** chain[1] ** ... (right-associative),
    or _MAX_BITS + 1 as soon as some power in the tower would exceed _MAX_BITS."""
    exponent = chain[-1]
    for base in reversed(chain[:-1]):
        if base >= 2 and exponent * base.bit_length() > _MAX_BITS:
            return _MAX_BITS + 1
        exponent = base**exponent
    return exponent.bit_length()


def pre(operator: List[str], operand: List[int]) -> bool:
    # The docstring: at least one operator, one operand more than operators.
    if len(operator) < 1 or len(operand) != len(operator) + 1:
        return False
    # Size bound only: at most 1000 operators (a natural solution builds the expression's
    # text and eval()s it; CPython's compiler gives up somewhere past 2500 operators).
    if len(operator) > _MAX_OPERATORS:
        return False
    if any(op not in _OPERATORS for op in operator):
        return False
    # The docstring: "a list of of non-negative integers". Size bound only: below 10**4000,
    # under CPython's 4300-digit limit for str(), which building the expression's text calls.
    if any(not 0 <= value < _MAX_OPERAND for value in operand):
        return False
    # Floor division by zero is undefined: '//' binds looser than '**', so its divisor is
    # the power tower starting at the next operand, which is non-zero when that operand is.
    if any(op == "//" and operand[i + 1] == 0 for i, op in enumerate(operator)):
        return False
    # Size bound only: towers like 9 ** 9 ** 9, or long products of big numbers, explode.
    # The result has at most as many bits as all the '**' towers together: keep that total bounded.
    total = 0
    chain = [operand[0]]
    for op, value in zip(operator, operand[1:]):
        if op == "**":
            chain.append(value)
            continue
        total += _tower_bits(chain)
        if total > _MAX_BITS:
            return False
        chain = [value]
    return total + _tower_bits(chain) <= _MAX_BITS
