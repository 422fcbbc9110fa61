"""HumanEval/95 check_dict_case: a dictionary (possibly empty) with str or int keys."""

from typing import Dict


def _odd_case(c: str) -> bool:
    """A character with a case that is not a letter (circled letters), or whose case
    mapping changes the length ('ß'.upper() == 'SS')."""
    return ((not c.isalpha() and c.upper() != c.lower())
            or len(c.upper()) != 1 or len(c.lower()) != 1)


def pre(dict: Dict[str | int, str]) -> bool:
    keys = [key for key in dict if isinstance(key, str)]
    # ambiguous: characters that have a case but are not letters, or whose case mapping
    # changes the length: whether such a key is "in lower case" or "upper case" is not said.
    if any(_odd_case(c) for key in keys for c in key):
        return False
    # ambiguous: a key with no cased character ("12", ""), all keys being strings: whether
    # it is "in lower case" (key == key.lower()) or not (key.islower()) is not said.
    if len(keys) == len(dict) and any(key.lower() == key.upper() for key in keys):
        return False
    return True
