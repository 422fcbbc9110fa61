"""Fixed ground truth for Mbpp/300 (count_binary_seq).

category: edge-case
witness: [29]
reason: the original adds the squares of the binomial coefficients C(n, r), each made by
float division, so its sum is off where the count passes 2**53:
count_binary_seq(29) gives 3.006726649954103e16, but the count is C(58, 29) =
30067266499541040, which a float holds exactly (3.006726649954104e16); an exact int
sample fails there, since the judge compares an int with a float only by ==. The fix
counts in integers (the sum is C(2n, n)) and returns a float, as the original and the
prompt's example (2.0) do, wherever that float is the count exactly: for n up to 30.
Past that (n >= 31) no float is the count, and no expected output can pass both the
exact int and the prompt's float (the judge wants == across int and float, closeness
only between two floats): which one is right is what the prompt leaves open, so the fix
raises there and the input is dropped (found by review of the kills: an exact sample
killed on n = 29).
"""

from math import comb


def count_binary_seq(n):
    count = comb(2 * n, n)
    try:
        as_float = float(count)
    except OverflowError:
        as_float = float("inf")
    if as_float != count:
        raise ValueError("no float holds the count exactly")
    return as_float
