"""Plain reference for Mbpp/113 (check_integer).

reason: the straightforward solution strips the text and an optional sign, then asks
whether what is left is all digits (and not empty).
"""


def check_integer(text):
    text = text.strip()
    if text[:1] in ("+", "-"):
        text = text[1:]
    return len(text) > 0 and text.isdigit()
