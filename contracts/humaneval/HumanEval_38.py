"""HumanEval/38 decode_cyclic: any string (every string is encode_cyclic of some string)."""


def pre(s: str) -> bool:
    return True
