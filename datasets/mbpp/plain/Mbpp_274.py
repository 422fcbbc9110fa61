"""Plain reference for Mbpp/274 (even_binomial_Coeff_Sum).

reason: the original returns the closed form 2 ** (n - 1); the straightforward solution
adds the binomial coefficients C(n, k) of even k one by one (a correct sample doing so
timed out on n = 19354).
"""

import math


def even_binomial_Coeff_Sum(n):
    total = 0
    for k in range(0, n + 1, 2):
        total += math.comb(n, k)
    return total
