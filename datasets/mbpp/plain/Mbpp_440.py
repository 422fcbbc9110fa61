"""Plain reference for Mbpp/440 (find_adverb_position).

reason: the straightforward solution walks the sentence's words and returns the first
that ends in 'ly' after at least one other character.
"""

import re


def find_adverb_position(text):
    for word in re.finditer(r"\w+", text):
        if len(word.group(0)) > 2 and word.group(0).endswith("ly"):
            return (word.start(), word.end(), word.group(0))
    return None
