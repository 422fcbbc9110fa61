"""HumanEval/95 check_dict_case: a dictionary (possibly empty) with str or int keys."""

from typing import Dict


def pre(dict: Dict[str | int, str]) -> bool:
    return True
