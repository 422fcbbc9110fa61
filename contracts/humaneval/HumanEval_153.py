"""HumanEval/153 Strongest_Extension: a class name and a non-empty list of extension names."""

from typing import List


def _titlecase(c: str) -> bool:
    return c.lower() != c.upper() and not (c.islower() or c.isupper())


def pre(class_name: str, extensions: List[str]) -> bool:
    # The docstring asks for the strongest of the extensions: with none it gives no answer.
    if len(extensions) < 1:
        return False
    for c in "".join(extensions):
        # ambiguous: characters that have a case but are not letters (circled 'ⓐ'): do they
        # count as uppercase or lowercase letters?
        if not c.isalpha() and (c.islower() or c.isupper() or c.upper() != c.lower()):
            return False
        # ambiguous: titlecase letters (U+01C5 'ǅ' is neither lowercase nor uppercase).
        if _titlecase(c):
            return False
        # ambiguous: characters whose case mapping changes the length ('ß' -> 'SS', 'İ' -> 'i' + U+0307).
        if len(c.swapcase()) != 1:
            return False
    return True
