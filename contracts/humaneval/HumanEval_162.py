"""HumanEval/162 string_to_md5: an ASCII string (empty is allowed and gives None)."""


def pre(text: str) -> bool:
    # The reference hashes text.encode('ascii'), which raises on non-ASCII characters.
    return text.isascii()
