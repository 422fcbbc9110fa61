"""HumanEval/27 flip_case: any string whose characters flip case one to one, without context rules."""


def _titlecase(c: str) -> bool:
    return c.lower() != c.upper() and not (c.islower() or c.isupper())


def pre(string: str) -> bool:
    # ambiguous: titlecase letters (U+01C5 'ǅ' is neither lowercase nor uppercase): flip to which?
    if any(map(_titlecase, string)):
        return False
    # ambiguous: characters whose case mapping changes the length ('ß' -> 'SS', 'İ' -> 'i' + U+0307).
    if not all(len(c.swapcase()) == 1 for c in string):
        return False
    # ambiguous: flips that do not flip back ('ſ' -> 'S' -> 's', Kelvin sign 'K' -> 'k' -> 'K').
    if not all(c.swapcase().swapcase() == c for c in string):
        return False
    # ambiguous: context-dependent case mapping (a word-final 'Σ' becomes 'ς', not 'σ').
    return string.swapcase() == "".join(c.swapcase() for c in string)
