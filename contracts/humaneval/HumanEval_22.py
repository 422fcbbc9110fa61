"""HumanEval/22 filter_integers: a list of any Python values (may be empty), but no bools:
whether True and False count as "integers" is ambiguous (they are ints to isinstance,
and the docstring's examples hold none)."""

from typing import Any, List


def pre(values: List[Any]) -> bool:
    return not any(type(v) is bool for v in values)
