"""Plain reference for Mbpp/256 (count_Primes_nums).

reason: the fixed ground truth sieves; the straightforward solution is the original's,
testing each i below n by trial division over every j < i.
"""


def count_Primes_nums(n):
    return sum(all(i % j != 0 for j in range(2, i)) for i in range(2, n))
