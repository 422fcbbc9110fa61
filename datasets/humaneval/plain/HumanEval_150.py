"""Plain reference for HumanEval/150 (x_or_y).

reason: the fixed ground truth stops trial division at the square root of n; the plain form
tries every divisor below n, as the original does (with its n < 2 bug mended).
"""


def x_or_y(n, x, y):
    if n < 2:
        return y
    for divisor in range(2, n):
        if n % divisor == 0:
            return y
    return x
