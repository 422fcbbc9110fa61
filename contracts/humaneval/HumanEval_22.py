"""HumanEval/22 filter_integers: any list of Python values (may be empty) but bools and whole floats."""

from typing import Any, List


def pre(values: List[Any]) -> bool:
    # ambiguous: bools where the task speaks of integers (ints to isinstance; the examples hold none).
    if any(type(v) is bool for v in values):
        return False
    # ambiguous: whole-number floats (is 3.0 an integer? by value yes, by type no).
    return not any(type(v) is float and v.is_integer() for v in values)
