"""Fixed ground truth for Mbpp/459 (remove_uppercase).

category: bad-logic
witness: ["0"]
reason: the original keeps only lowercase letters, so it also removes digits, spaces and
punctuation: remove_uppercase('0') is '', but removing the uppercase letters of '0'
leaves '0' (found by the jury: six base-passing samples of two families agree).
"""


def remove_uppercase(str1):
    return ''.join(c for c in str1 if not c.isupper())
