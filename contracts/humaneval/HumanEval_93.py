"""HumanEval/93 encode: a message of ASCII letters and spaces only, possibly empty."""


def pre(message: str) -> bool:
    # The docstring says "Assume only letters" of "the english alphabet"; its examples also
    # separate words with spaces.
    return all(c == " " or (c.isascii() and c.isalpha()) for c in message)
