"""HumanEval/159 eat: three integers number, need, remaining, each in 0..1000."""


def pre(number: int, need: int, remaining: int) -> bool:
    return 0 <= number <= 1000 and 0 <= need <= 1000 and 0 <= remaining <= 1000
