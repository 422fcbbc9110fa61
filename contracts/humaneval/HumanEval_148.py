"""HumanEval/148 bf: two strings; names that are not planets are explicitly covered (empty tuple)."""


def pre(planet1: str, planet2: str) -> bool:
    return True
