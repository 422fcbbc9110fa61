"""HumanEval/161 solve: any string (possibly empty) whose cased characters are letters, each plainly upper- or lowercase with a one-character other case."""


def _cased_non_letter(c: str) -> bool:
    return not c.isalpha() and (c.islower() or c.isupper() or c.upper() != c.lower())


def _titlecase(c: str) -> bool:
    return c.lower() != c.upper() and not (c.islower() or c.isupper())


def pre(s: str) -> bool:
    # ambiguous: characters that have a case but are not letters (circled 'ⓐ'): is s[i] a
    # letter whose case is reversed?
    if any(map(_cased_non_letter, s)):
        return False
    # ambiguous: titlecase letters (U+01C5 'ǅ' is neither lowercase nor uppercase): flip to which?
    if any(map(_titlecase, s)):
        return False
    # ambiguous: characters whose case mapping changes the length ('ß' -> 'SS', 'İ' -> 'i' + U+0307).
    if not all(len(c.swapcase()) == 1 for c in s):
        return False
    # ambiguous: context-dependent case mapping (a word-final 'Σ' becomes 'ς', not 'σ').
    return s.swapcase() == "".join(c.swapcase() for c in s)
