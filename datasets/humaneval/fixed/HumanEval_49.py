"""Fixed ground truth for HumanEval/49 (modp).

category: edge-case
witness: [0, 1]
reason: the original returns 1 for modp(0, 1), although 2**0 mod 1 is 0. It also doubles n
times (10**6 steps for n = 10**6); modular exponentiation by squaring needs about log2(n)
steps.
"""


def modp(n: int, p: int):
    result = 1 % p
    base = 2 % p
    while n > 0:
        if n & 1:
            result = result * base % p
        base = base * base % p
        n >>= 1
    return result
