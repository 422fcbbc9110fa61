"""HumanEval/147 get_max_triples: a positive integer n."""


def pre(n: int) -> bool:
    # The reference enumerates all O(n**3) triples (n = 300 already takes about a
    # second): keep n generously bounded.
    return 1 <= n <= 200
