"""HumanEval/139 special_factorial: a positive integer n."""


def pre(n: int) -> bool:
    # The product of factorials grows like n**(n*n/2) (special_factorial(1000) has about
    # 3.9 million bits and takes seconds): keep n generously bounded.
    return 1 <= n <= 200
