"""Plain reference for Mbpp/599 (sum_average).

reason: the fixed ground truth uses the closed form; the straightforward solution is the
original's, adding up 1, 2, ..., n.
"""


def sum_average(number):
    sum_ = sum(range(1, number + 1))
    return sum_, sum_ / number
