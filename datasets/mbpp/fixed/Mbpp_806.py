"""Fixed ground truth for Mbpp/806 (max_run_uppercase).

category: bad-logic
witness: ["AAbC"]
reason: the original sets the best run to the current one at every lowercase letter
(res = cnt) instead of keeping the larger of the two: max_run_uppercase('AAbC') gives 1 (the
last run), but the longest run of uppercase letters, AA, has 2 (found by review of the
kills: nine base-passing samples of two families say so).
"""


def max_run_uppercase(test_str):
    best = run = 0
    for c in test_str:
        run = run + 1 if c.isupper() else 0
        best = max(best, run)
    return best
