"""Fixed ground truth for Mbpp/639 (sample_nam).

category: bad-logic
witness: [["ANNA", "bob"]]
reason: the original keeps only names written as Capitalized words (el[0].isupper() and
el[1:].islower()), so it also removes names that do not start with a lowercase letter:
sample_nam(['ANNA', 'bob']) is 0, but removing the names that start with a lowercase letter
leaves 'ANNA', of length 4 (found by review of the kills: base-passing samples of two
families say 4).
"""


def sample_nam(sample_names):
    return sum(len(name) for name in sample_names if not name[:1].islower())
