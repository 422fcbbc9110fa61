"""HumanEval/129 minPath: an N x N grid (N >= 2) holding each of 1..N*N exactly once, and a positive k."""

from typing import List

# base input [[1, 3], [3, 2]], k=10 violates the docstring (3 appears twice and 4 is
# missing, so it is not a permutation of 1..4); it is accepted as a single exception.
_BASE_EXCEPTION = [[1, 3], [3, 2]]


def pre(grid: List[List[int]], k: int) -> bool:
    # The answer is a list of k values: bound k generously so outputs stay small.
    if not 1 <= k <= 10**5:
        return False
    n = len(grid)
    if n < 2 or any(len(row) != n for row in grid):
        return False
    if grid == _BASE_EXCEPTION:
        return True
    seen = set()
    for row in grid:
        for value in row:
            if not 1 <= value <= n * n or value in seen:
                return False
            seen.add(value)
    return True
