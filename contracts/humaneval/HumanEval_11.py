"""HumanEval/11 string_xor: two equally long strings of only '0' and '1' characters."""


def pre(a: str, b: str) -> bool:
    # The docstring: strings "consisting only of 1s and 0s".
    if not (set(a) <= {"0", "1"} and set(b) <= {"0", "1"}):
        return False
    # ambiguous: strings of different lengths (align left or right, pad or truncate?).
    return len(a) == len(b)
