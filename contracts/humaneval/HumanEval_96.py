"""HumanEval/96 count_up_to: a non-negative integer n."""


def pre(n: int) -> bool:
    # n >= 0: the docstring says "takes an non-negative integer". The upper bound only keeps
    # sizes sane: the output lists every prime below n.
    return 0 <= n <= 10**5
