"""Fixed ground truth for Mbpp/103 (eulerian_num).

category: performance
witness: [20, 10]
reason: the original recurses on A(n, m) = (n - m) A(n - 1, m - 1) + (m + 1) A(n - 1, m)
without memoising, exponential in n (eulerian_num(20, 10): more than a million lines);
filling the triangle row by row takes n m steps.
"""


def eulerian_num(n, m):
    if m >= n or n == 0:
        return 0
    row = [1] + [0] * m  # A(1, j): 1 for j = 0, else 0
    for k in range(2, n + 1):
        new = [1] + [0] * m
        for j in range(1, min(m, k - 1) + 1):
            new[j] = (k - j) * row[j - 1] + (j + 1) * row[j]
        row = new
    return row[m]
