"""Plain reference for Mbpp/790 (even_position).

reason: the straightforward solution looks at every even index and checks its number.
"""


def even_position(nums):
    for i in range(len(nums)):
        if i % 2 == 0 and nums[i] % 2 != 0:
            return False
    return True
