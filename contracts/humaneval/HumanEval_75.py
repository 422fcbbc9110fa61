"""HumanEval/75 is_multiply_prime: an integer a less than 100 (negative ones included)."""

# The docstring: "(a) is less then 100". Base inputs 105, 125, 126, 729, 891 and 1001
# break it; they are accepted by name only, so that the dataset's own tests stay valid.
_BASE_OVER_100 = (105, 125, 126, 729, 891, 1001)


def pre(a: int) -> bool:
    return a < 100 or a in _BASE_OVER_100
