"""HumanEval/76 is_simple_power: positive integers x and n; is x == n**k for some integer k >= 0."""


def pre(x: int, n: int) -> bool:
    # ambiguous: the docstring defines a simple power through positive examples only; for
    # n <= 0 or x <= 0 the answer rests on conventions it does not fix (is 1 a power of 0,
    # through 0**0? do negative bases and exponents count?).
    return x >= 1 and n >= 1
