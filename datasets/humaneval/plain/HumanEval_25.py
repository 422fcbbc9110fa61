"""Plain reference for HumanEval/25 (factorize).

reason: the straightforward factorization divides n by 2, 3, 4, ... for as long as n > 1, so
for a prime n it tries every number up to n; the original stops at sqrt(n).
"""


def factorize(n: int) -> List[int]:
    factors = []
    divisor = 2
    while n > 1:
        if n % divisor == 0:
            factors.append(divisor)
            n //= divisor
        else:
            divisor += 1
    return factors
