"""Plain reference for Mbpp/389 (find_lucas).

reason: the straightforward solution is the original's, the naive doubly recursive
definition L(n) = L(n - 1) + L(n - 2): exponential in n (find_lucas(25) makes 242,785
calls, about 680,000 lines), so n past 24 is left to the stress tier (a correct sample
written so timed out on n = 65; the prompt asks for no efficiency).
"""


def find_lucas(n):
    if n == 0:
        return 2
    if n == 1:
        return 1
    return find_lucas(n - 1) + find_lucas(n - 2)
