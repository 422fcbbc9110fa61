"""HumanEval/77 iscube: any integer a (negative and zero included), within float precision."""


def pre(a: int) -> bool:
    # The reference takes a float cube root: it is exact only while |a| is far inside
    # float precision (it fails for cubes near 1e45 and overflows past 1e308).
    return abs(a) <= 10**30
