"""HumanEval/86 anti_shuffle: any string without whitespace other than the space (words are separated by spaces)."""


def pre(s: str) -> bool:
    # ambiguous: whitespace other than the space (tab, newline): the docstring separates words
    # by spaces only, and does not say whether it is part of a word or a blank to keep.
    return all(c == " " or not c.isspace() for c in s)
