"""Fixed ground truth for HumanEval/44 (change_base).

category: edge-case
witness: [0, 3]
reason: the original builds digits only while x > 0, so for x = 0 it returns the empty
string instead of "0".
"""


def change_base(x: int, base: int):
    if x == 0:
        return "0"
    digits = []
    while x > 0:
        digits.append(str(x % base))
        x //= base
    return "".join(reversed(digits))
