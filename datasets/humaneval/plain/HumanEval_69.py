"""Plain reference for HumanEval/69 (search).

reason: the original's algorithm, a natural one: count the values, then scan every integer
from 1 to max(lst) (about max(lst) steps, so huge values are left to the stress tier); the
counts are kept in a dict, where the original's list of max(lst) + 1 counters runs out of
memory.
"""


def search(lst):
    frequency = {}
    for value in lst:
        frequency[value] = frequency.get(value, 0) + 1
    answer = -1
    for value in range(1, max(lst) + 1):
        if frequency.get(value, 0) >= value:
            answer = value
    return answer
