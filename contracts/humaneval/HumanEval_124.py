"""HumanEval/124 valid_date: any string; the function itself decides whether it is a valid mm-dd-yyyy date."""


def pre(date: str) -> bool:
    # Malformed and empty strings are explicitly part of the task (they return False).
    return True
