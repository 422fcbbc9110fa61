"""HumanEval/96 count_up_to: a non-negative integer n."""


def pre(n: int) -> bool:
    # The fixed ground truth sieves; the output lists every prime below n, so n is bounded
    # to keep outputs a sane size.
    return 0 <= n <= 10**5
