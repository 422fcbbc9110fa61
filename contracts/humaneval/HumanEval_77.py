"""HumanEval/77 iscube: any integer a (negative and zero included) with |a| <= 10**30."""


def pre(a: int) -> bool:
    # ambiguous: the natural solution takes a float cube root (a ** (1/3)); past 10**30 a
    # float no longer decides which integer is the root (it is wrong for cubes near 1e45
    # and overflows past 1e308), so such inputs test float precision, not the task.
    return abs(a) <= 10**30
