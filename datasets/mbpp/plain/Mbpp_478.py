"""Plain reference for Mbpp/478 (remove_lowercase).

reason: the straightforward solution keeps every character that is not lowercase.
"""


def remove_lowercase(str1):
    kept = ""
    for c in str1:
        if not c.islower():
            kept += c
    return kept
