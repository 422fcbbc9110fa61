"""Fixed ground truth for Mbpp/415 (max_Product).

category: bad-logic
witness: [[1, 2, 3, 3]]
reason: the original pairs values with a != b, so it never pairs two equal values at
different positions: max_Product([1, 2, 3, 3]) gives (2, 3), product 6, but the two 3s
make a pair of product 9 (and on [5, 5] it finds no pair at all and raises). The fix
pairs distinct positions, in the original's order (first by the first element's
position, then the second's), and keeps the first pair of the highest product, as the
original's max does: on arrays of distinct values it is the original, and so wherever
the highest product needs two different values (found by review of the kills: on
[0, 0, 1] samples say (0, 0), first of the pairs of product 0; the original (0, 1)).
"""


def max_Product(arr):
    pairs = [(arr[i], arr[j]) for i in range(len(arr)) for j in range(len(arr)) if i != j]
    return max(pairs, key=lambda x: x[0] * x[1])
