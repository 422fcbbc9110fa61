"""Fixed ground truth for HumanEval/63 (fibfib).

category: performance
witness: [22]
reason: the docstring asks to compute fibfib "efficiently", but the original is the naive
triple recursion, exponential in n; iterating over the sequence takes n steps.
"""


def fibfib(n: int):
    a, b, c = 0, 0, 1
    for _ in range(n):
        a, b, c = b, c, a + b + c
    return a
