"""Fixed ground truth for HumanEval/55 (fib).

category: performance
witness: [26]
reason: the original is the naive doubly recursive definition, exponential in n
(fib(30) makes 2.7 million calls); iterating over the sequence takes n steps.
"""


def fib(n: int):
    previous, current = 0, 1
    for _ in range(n):
        previous, current = current, previous + current
    return previous
