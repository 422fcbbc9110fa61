"""HumanEval/138 is_equal_to_sum_even: any integer n (odd, small and negative n simply give False)."""


def pre(n: int) -> bool:
    return True
