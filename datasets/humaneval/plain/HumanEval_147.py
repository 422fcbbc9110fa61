"""Plain reference for HumanEval/147 (get_max_triples).

reason: the fixed ground truth counts residues mod 3; the plain form builds the array and
tries every triple i < j < k, as the original does.
"""


def get_max_triples(n):
    a = [i * i - i + 1 for i in range(1, n + 1)]
    count = 0
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                if (a[i] + a[j] + a[k]) % 3 == 0:
                    count += 1
    return count
