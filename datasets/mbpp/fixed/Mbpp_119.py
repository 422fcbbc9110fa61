"""Fixed ground truth for Mbpp/119 (search).

category: bad-logic
witness: [[1, 1, 1, 2]]
reason: the original XORs all the elements, which leaves the element that appears once
only when every other element appears an even number of times: search([1, 1, 1, 2])
gives 3, not even in the array, though 2 is the one element that appears once; on
[1, 1], where no element appears once, it gives 0. The fix counts the occurrences and
returns the element that appears exactly once; an array with no such element, or with
several, breaks the prompt's premise (there is one such element), so the fix raises
there and the input is dropped (found by review of the kills: on [1, 1] the original's 0
is no answer). Where every other element appears an even number of times, the fix is the
XOR.
"""

from collections import Counter


def search(arr):
    once = [x for x, times in Counter(arr).items() if times == 1]
    if len(once) != 1:
        raise ValueError("the array must have exactly one element that appears once")
    return once[0]
