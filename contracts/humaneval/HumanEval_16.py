"""HumanEval/16 count_distinct_characters: any string whose characters each lowercase to one
character. "Distinct characters (regardless of case)" is ambiguous for the few whose
lowercase is longer (U+0130 'İ' lowercases to 'i' plus a combining dot: one character or
two?), so they are left out."""


def pre(string: str) -> bool:
    return all(len(c.lower()) == 1 for c in string)
