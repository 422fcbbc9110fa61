"""Fixed ground truth for HumanEval/31 (is_prime).

category: performance
witness: [915181]
reason: the original trial-divides by every k < n - 1 (10**6 steps for a prime near 10**6);
divisors up to sqrt(n) suffice.
"""


def is_prime(n):
    if n < 2:
        return False
    divisor = 2
    while divisor * divisor <= n:
        if n % divisor == 0:
            return False
        divisor += 1
    return True
