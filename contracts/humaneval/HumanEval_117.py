"""HumanEval/117 select_words: a string of ASCII letters and spaces, and a natural number n >= 0."""


def pre(s: str, n: int) -> bool:
    # The docstring: "a natural number n" and "the input string contains only letters and
    # spaces" (consonants: English letters).
    if not (n >= 0 and all(c == " " or (c.isascii() and c.isalpha()) for c in s)):
        return False
    # ambiguous: empty fields (two spaces in a row, a leading or trailing space) when n == 0:
    # is the empty word between them a word with no consonants, or no word? ("" itself is
    # settled by the docstring: an empty list.)
    return not (n == 0 and s != "" and "" in s.split(" "))
