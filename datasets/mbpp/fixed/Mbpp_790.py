"""Fixed ground truth for Mbpp/790 (even_position).

category: bad-logic
witness: [[2, 2]]
reason: the original also requires every odd index to hold an odd number
(nums[i] % 2 == i % 2), which the task never asks: even_position([2, 2]) is False, but its
only even index holds 2, an even number, so the answer is True (found by review of the
kills: six base-passing samples of two families say True).
"""


def even_position(nums):
    return all(nums[i] % 2 == 0 for i in range(0, len(nums), 2))
