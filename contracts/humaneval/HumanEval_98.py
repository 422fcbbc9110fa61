"""HumanEval/98 count_upper: any string, possibly empty."""


def _odd_case(c: str) -> bool:
    """A character with a case that is not a letter (circled letters), or whose case
    mapping changes the length ('ß'.upper() == 'SS', 'İ'.lower() has two characters)."""
    return ((not c.isalpha() and c.upper() != c.lower())
            or len(c.upper()) != 1 or len(c.lower()) != 1)


def pre(s: str) -> bool:
    # ambiguous: characters that have a case but are not letters (is 'Ⓐ' an uppercase
    # vowel?), or whose case mapping changes the length ('İ').
    return not any(_odd_case(c) for c in s)
