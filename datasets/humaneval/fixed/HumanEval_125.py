r"""Fixed ground truth for HumanEval/125 (split_words).

category: edge-case
witness: ["a\tb"]
reason: the original looks only for the space character, so text whose only whitespace is
a tab or a newline is not split on it (it is split on commas, or its letters are counted).
"""


def split_words(txt):
    if any(c.isspace() for c in txt):
        return txt.split()
    if "," in txt:
        return txt.split(",")
    return sum(1 for c in txt if "a" <= c <= "z" and (ord(c) - ord("a")) % 2 == 1)
