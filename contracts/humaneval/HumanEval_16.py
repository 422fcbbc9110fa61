"""HumanEval/16 count_distinct_characters: any string whose characters each lowercase to one
character, the same one wherever they stand. "Distinct characters (regardless of case)" is
ambiguous for the few whose lowercase is longer (U+0130 'İ' lowercases to 'i' plus a
combining dot: one character or two?) and where str.lower applies a context rule (a
word-final 'Σ' becomes 'ς', not 'σ': is 'σΣ' one character or two?), so they are left out."""


def pre(string: str) -> bool:
    return (all(len(c.lower()) == 1 for c in string)
            and string.lower() == "".join(c.lower() for c in string))
