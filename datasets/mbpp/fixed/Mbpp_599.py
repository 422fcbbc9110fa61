"""Fixed ground truth for Mbpp/599 (sum_average).

category: performance
witness: [1000000]
reason: the original adds up 1, 2, ..., n one by one (10**6 steps for n = 10**6); their
sum is n (n + 1) / 2.
"""


def sum_average(number):
    sum_ = number * (number + 1) // 2
    return sum_, sum_ / number
