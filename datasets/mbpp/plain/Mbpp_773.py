"""Plain reference for Mbpp/773 (occurance_substring).

reason: the straightforward solution tries every position in turn.
"""


def occurance_substring(text, pattern):
    for s in range(len(text) - len(pattern) + 1):
        if text[s:s + len(pattern)] == pattern:
            return (pattern, s, s + len(pattern))
    return None
