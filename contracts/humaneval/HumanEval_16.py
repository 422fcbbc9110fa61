"""HumanEval/16 count_distinct_characters: any string without characters of ambiguous case."""


def pre(string: str) -> bool:
    # ambiguous: characters whose case mapping changes the length ('İ' -> 'i' + U+0307, 'ß' -> 'SS').
    if not all(len(c.lower()) == 1 and len(c.upper()) == 1 for c in string):
        return False
    # ambiguous: cases that disagree ('ſ' -> 'S' -> 's'): "regardless of case" by lower() or upper() differs.
    if not all(c.upper().lower() == c.lower() and c.lower().upper() == c.upper() for c in string):
        return False
    # ambiguous: context-dependent lowercasing (a word-final 'Σ' becomes 'ς'): is 'σΣ' one character or two?
    return string.lower() == "".join(c.lower() for c in string)
