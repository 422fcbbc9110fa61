"""HumanEval/156 int_to_mini_roman: an integer with 1 <= number <= 1000."""


def pre(number: int) -> bool:
    return 1 <= number <= 1000
