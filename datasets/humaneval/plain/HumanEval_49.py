"""Plain reference for HumanEval/49 (modp).

reason: the straightforward solution, HumanEval's own, doubles n times and reduces modulo p
at each step ("aware of numerics": no huge intermediate number); the fixed ground truth
squares and multiplies.
"""


def modp(n: int, p: int):
    result = 1 % p
    for _ in range(n):
        result = (2 * result) % p
    return result
