"""HumanEval/46 fib4: the index n of the Fib4 sequence, a non-negative integer."""


def pre(n: int) -> bool:
    # fib4(n) grows like 1.93**n: bound n so the values stay a manageable size.
    return 0 <= n <= 1000
