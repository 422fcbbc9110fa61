"""Plain reference for Mbpp/639 (sample_nam).

reason: the straightforward solution adds the lengths of the names whose first letter is
not lowercase.
"""


def sample_nam(sample_names):
    total = 0
    for name in sample_names:
        if name and name[0].islower():
            continue
        total += len(name)
    return total
