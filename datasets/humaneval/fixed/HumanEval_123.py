"""Fixed ground truth for HumanEval/123 (get_odd_collatz).

category: edge-case
witness: [319804831]
reason: the original halves with float division (n / 2), so once a trajectory passes 2**53
(that of 319804831 does) the terms are rounded and the odd numbers it lists are wrong, and
for n beyond the float range it raises OverflowError; halving with // stays exact.
"""


def get_odd_collatz(n):
    odd = [n] if n % 2 == 1 else []
    while n > 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        if n % 2 == 1:
            odd.append(n)
    return sorted(odd)
