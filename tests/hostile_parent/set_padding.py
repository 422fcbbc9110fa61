"""Attacks the parent's judge through an oracle that accepts repeats: a right answer to a
task judged by the ``set`` oracle (MBPP's ``similar_elements``: any order, members as a
set) padded with a million repeats of one member, 2 MB of JSON per input.

Each output is right by the oracle, so every input is judged: 198 s and 880 MB of the
parent on MBPP+ before outputs had a size allowance. Expected: error,
``output too large`` (an output is allowed a size from its input's and its expected
output's, which repeats far past).
"""

#: The task, as a line of a tasks file: 30 inputs of two short lists.
TASK = {
    "task_id": "Mbpp/2", "entry_point": "similar_elements",
    "prompt": '"""\nWrite a function to find the shared elements from the given two lists.\n"""\n',
    "canonical_solution": ("def similar_elements(test_tup1, test_tup2):\n"
                           "    return tuple(set(test_tup1) & set(test_tup2))\n"),
    "base_input": [[[k, k + 1, k + 2, k + 3], [k + 2, k + 7, k + 1, k + 9]] for k in range(30)],
    "oracle": "set", "equality": "value",
}
#: A right answer, written another way.
RIGHT = ("def similar_elements(a, b):\n"
         "    return [x for x in set(a) if x in set(b)]\n")

SOLUTION = '''\
def similar_elements(a, b):
    shared = list(set(a) & set(b))
    return shared + shared[:1] * 1_000_000
'''


def record() -> dict[str, str]:
    return {"solution": SOLUTION}
