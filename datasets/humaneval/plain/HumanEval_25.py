"""Plain reference for HumanEval/25 (factorize).

reason: the straightforward factorization tries every number from 2 to n as a divisor
(dividing it out while it divides), so it walks up to n whatever the factors; the original
stops at sqrt(n).
"""


def factorize(n: int) -> List[int]:
    factors = []
    for divisor in range(2, n + 1):
        while n % divisor == 0:
            factors.append(divisor)
            n //= divisor
    return factors
