"""HumanEval/18 how_many_times: any string and a non-empty substring."""


def pre(string: str, substring: str) -> bool:
    # Occurrences of the empty string are not meaningful to count.
    return len(substring) > 0
