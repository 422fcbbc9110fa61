"""HumanEval/103 rounded_avg: two positive integers n and m (n > m allowed, giving -1)."""


def pre(n: int, m: int) -> bool:
    if n < 1 or m < 1:
        return False
    if n > m:
        return True
    # The reference sums n..m one by one and averages through a float: bound the range
    # length and keep n + m below 2**53 so the float average is exact.
    return m - n <= 10**6 and n + m < 2**53
