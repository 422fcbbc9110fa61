"""Plain reference for Mbpp/735 (toggle_middle_bits).

reason: the straightforward solution flips each character of the binary string between
the first and the last.
"""


def toggle_middle_bits(n):
    binary = bin(n)[2:]
    if len(binary) <= 2:
        return n
    middle = ""
    for bit in binary[1:-1]:
        middle += "0" if bit == "1" else "1"
    return int(binary[0] + middle + binary[-1], 2)
