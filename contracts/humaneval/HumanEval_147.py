"""HumanEval/147 get_max_triples: a positive integer n."""


def pre(n: int) -> bool:
    # The original enumerates all O(n**3) triples; the fixed ground truth counts residues,
    # so only a sanity bound remains.
    return 1 <= n <= 10**6
