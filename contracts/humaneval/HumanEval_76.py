"""HumanEval/76 is_simple_power: positive integers x and n; is x == n**k for some integer k >= 0."""


def pre(x: int, n: int) -> bool:
    # n = 0 makes the reference loop forever; x <= 0 or n < 0 are outside its evident domain.
    return x >= 1 and n >= 1
