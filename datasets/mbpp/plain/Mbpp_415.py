"""Plain reference for Mbpp/415 (max_Product).

reason: the straightforward solution tries every two positions i < j and keeps the first
pair whose product is larger than the best so far.
"""


def max_Product(arr):
    best = None
    for i in range(len(arr)):
        for j in range(i + 1, len(arr)):
            if best is None or arr[i] * arr[j] > best[0] * best[1]:
                best = (arr[i], arr[j])
    return best
