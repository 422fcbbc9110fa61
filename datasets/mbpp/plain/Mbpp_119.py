"""Plain reference for Mbpp/119 (search).

reason: the straightforward solution counts each element's occurrences in the array and
returns the first element that appears once.
"""


def search(arr):
    for x in arr:
        if arr.count(x) == 1:
            return x
    return None
