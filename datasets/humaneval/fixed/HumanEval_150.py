"""Fixed ground truth for HumanEval/150 (x_or_y).

category: performance
witness: [915181, 0, 0]
reason: the original tests n's primality by trial division over every number below n
(10**6 steps for a prime near 10**6), where divisors up to sqrt(n) suffice, and it calls 0
and the negative numbers prime (returning x), though no number below 2 is.
"""


def x_or_y(n, x, y):
    if n < 2:
        return y
    divisor = 2
    while divisor * divisor <= n:
        if n % divisor == 0:
            return y
        divisor += 1
    return x
