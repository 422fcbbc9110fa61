"""HumanEval/18 how_many_times: any string and a non-empty substring."""


def pre(string: str, substring: str) -> bool:
    # ambiguous: how often the empty string "can be found" (0, len(string) + 1, or without end?).
    return len(substring) > 0
