"""HumanEval/27 flip_case: any string whose characters flip case one to one. "Flip lowercase
characters to uppercase and uppercase to lowercase" is ambiguous for titlecase letters
(U+01C5 'ǅ' is neither), for letters whose other case is longer ('ß' -> 'SS') and where
str.swapcase applies a context rule (a word-final 'Σ' becomes 'ς', not 'σ'): they are
left out."""


def _flips_one_to_one(c: str) -> bool:
    if c.lower() != c.upper() and not (c.islower() or c.isupper()):
        return False  # cased, but neither lowercase nor uppercase: titlecase
    flipped = c.swapcase()
    return len(flipped) == 1 and flipped.swapcase() == c


def pre(string: str) -> bool:
    return (all(map(_flips_one_to_one, string))
            and string.swapcase() == "".join(c.swapcase() for c in string))
