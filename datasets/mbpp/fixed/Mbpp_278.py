"""Fixed ground truth for Mbpp/278 (count_first_elements).

category: edge-case
witness: [(1, 1)]
reason: the original returns the index where its loop stops, so on a tuple without a
tuple element it returns the last index, len - 1: count_first_elements((1, 1)) is 1,
a count of nothing in particular (and on () it raises UnboundLocalError). The prompt
presupposes a tuple element; without one there is no answer, so the fix raises and the
input is dropped (found by review of the kills: samples say 2 there, the reference 1).
Where there is a tuple element, the fix is the original.
"""


def count_first_elements(test_tup):
    for count, ele in enumerate(test_tup):
        if isinstance(ele, tuple):
            return count
    raise ValueError("the tuple has no tuple element")
