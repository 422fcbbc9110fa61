"""Plain reference for Mbpp/267 (square_Sum).

reason: the straightforward solution sums the squares of the first n odd numbers.
"""


def square_Sum(n):
    return sum((2 * i + 1) ** 2 for i in range(n))
