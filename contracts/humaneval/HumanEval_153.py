"""HumanEval/153 Strongest_Extension: a class name and a non-empty list of extension names."""

from typing import List


def pre(class_name: str, extensions: List[str]) -> bool:
    # There must be an extension to choose (the reference reads extensions[0]).
    return len(extensions) >= 1
