"""Plain reference for Mbpp/806 (max_run_uppercase).

reason: the straightforward solution counts the current run of uppercase letters and keeps
the longest.
"""


def max_run_uppercase(test_str):
    best = 0
    run = 0
    for c in test_str:
        if c.isupper():
            run += 1
            if run > best:
                best = run
        else:
            run = 0
    return best
