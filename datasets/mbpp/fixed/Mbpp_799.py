"""Fixed ground truth for Mbpp/799 (left_rotate).

category: bad-logic
witness: [32, 27]
reason: the prompt says the number is 32 bit, but the original does not keep the result
to 32 bits: left_rotate(32, 27) gives 4294967297 (2**32 + 1), a 33-bit number; rotated
within 32 bits it is 1 (the jury finds it when Qwen-Coder 480B and Turbo are two
families).
"""


def left_rotate(n, d):
    INT_BITS = 32
    return ((n << d) | (n >> (INT_BITS - d))) & 0xFFFFFFFF
