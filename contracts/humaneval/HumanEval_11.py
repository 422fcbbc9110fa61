"""HumanEval/11 string_xor: two equally long strings of only '0' and '1' characters."""


def pre(a: str, b: str) -> bool:
    # Bitwise XOR pairs the bits position by position, so the lengths must match.
    return len(a) == len(b) and set(a) <= {"0", "1"} and set(b) <= {"0", "1"}
