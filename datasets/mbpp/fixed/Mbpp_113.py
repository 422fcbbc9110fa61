"""Fixed ground truth for Mbpp/113 (check_integer).

category: edge-case
witness: [""]
reason: the original returns None for an empty (or blank) string; the task asks whether
the string represents an integer, and an empty string does not: False (found by the jury:
fifteen base-passing samples of two families say False).
"""


def check_integer(text):
    text = text.strip()
    if len(text) < 1:
        return False
    if text[0] in '+-':
        text = text[1:]
    return text.isdigit()
