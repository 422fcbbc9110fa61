"""Fixed ground truth for Mbpp/735 (toggle_middle_bits).

category: edge-case
witness: [1]
reason: the original joins the first and the last character of bin(n)[2:], which for a
one-bit number are the same bit, so it doubles it: toggle_middle_bits(1) gives 3 (0b11),
but 1 has no bits but its first (and last) one, none to toggle: 1 (found by review of the
kills: five base-passing samples of two families say 1).
"""


def toggle_middle_bits(n):
    width = n.bit_length()
    if width <= 2:
        return n
    return n ^ (((1 << (width - 1)) - 1) ^ 1)
