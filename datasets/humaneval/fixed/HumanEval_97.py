"""Fixed ground truth for HumanEval/97 (multiply).

category: bad-logic
witness: [-14, 1]
reason: the original takes a % 10, which is 6 for a = -14 (Python's modulo follows the
divisor's sign); the unit digit of -14 is 4.
"""


def multiply(a, b):
    return (abs(a) % 10) * (abs(b) % 10)
