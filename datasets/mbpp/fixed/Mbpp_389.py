"""Fixed ground truth for Mbpp/389 (find_lucas).

category: performance
witness: [26]
reason: the original is the naive doubly recursive definition, exponential in n
(find_lucas(26) makes 392,835 calls, more than a million lines); iterating over the
sequence takes n steps.
"""


def find_lucas(n):
    previous, current = 2, 1
    if n == 0:
        return previous
    for _ in range(n - 1):
        previous, current = current, previous + current
    return current
