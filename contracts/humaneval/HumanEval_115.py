"""HumanEval/115 max_fill: a rectangular 0/1 grid (1..100 rows of 1..100 cells) and 1 <= capacity <= 10."""

from typing import List


def pre(grid: List[List[int]], capacity: int) -> bool:
    # The docstring's constraints: equal-length rows, 1 <= grid.length <= 10^2,
    # 1 <= grid[:,1].length <= 10^2, grid[i][j] -> 0 | 1, 1 <= capacity <= 10.
    if not 1 <= capacity <= 10:
        return False
    if not 1 <= len(grid) <= 100:
        return False
    width = len(grid[0])
    if not 1 <= width <= 100:
        return False
    return all(len(row) == width and all(v in (0, 1) for v in row) for row in grid)
