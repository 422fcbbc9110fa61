"""Plain reference for HumanEval/96 (count_up_to).

reason: the fixed ground truth sieves; the straightforward solution is the original's,
testing each i below n by trial division over every j < i.
"""


def count_up_to(n):
    primes = []
    for i in range(2, n):
        is_prime = True
        for j in range(2, i):
            if i % j == 0:
                is_prime = False
                break
        if is_prime:
            primes.append(i)
    return primes
