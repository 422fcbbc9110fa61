"""Plain reference for Mbpp/459 (remove_uppercase).

reason: the straightforward solution keeps every character that is not uppercase.
"""


def remove_uppercase(str1):
    kept = ""
    for c in str1:
        if not c.isupper():
            kept += c
    return kept
