"""Fixed ground truth for HumanEval/91 (is_bored).

category: edge-case
witness: ["I"]
reason: the original counts a sentence only when it begins with the two characters "I ",
so a sentence that is just "I", or that follows leading whitespace, is missed.
"""

import re


def is_bored(S):
    sentences = re.split(r"[.?!]", S)
    return sum(1 for sentence in sentences if sentence.split()[:1] == ["I"])
