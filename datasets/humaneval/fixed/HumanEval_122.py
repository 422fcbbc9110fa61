"""Fixed ground truth for HumanEval/122 (add_elements).

category: edge-case
witness: [[-10], 1]
reason: the original counts digits with len(str(elem)), so the minus sign makes -10..-99
look like three-digit numbers and they are left out of the sum.
"""


def add_elements(arr, k):
    return sum(elem for elem in arr[:k] if -100 < elem < 100)
