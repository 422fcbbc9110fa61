"""Fixed ground truth for HumanEval/69 (search).

category: performance
witness: [[10000000]]
reason: the original keeps a counter for every integer up to max(lst) and scans them all
(10**7 steps for [10**7], and no memory for [10**12]); counting only the values that occur
suffices.
"""


def search(lst):
    counts = {}
    for value in lst:
        counts[value] = counts.get(value, 0) + 1
    answer = -1
    for value, count in counts.items():
        if count >= value > answer:
            answer = value
    return answer
