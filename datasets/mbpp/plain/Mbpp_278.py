"""Plain reference for Mbpp/278 (count_first_elements).

reason: the straightforward solution walks the tuple and returns the index of the first
element that is a tuple.
"""


def count_first_elements(test_tup):
    for i in range(len(test_tup)):
        if isinstance(test_tup[i], tuple):
            return i
    return None
