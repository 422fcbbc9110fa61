"""Plain reference for HumanEval/102 (choose_num).

reason: the original decides from the parity of y at once; the straightforward solution walks
every integer from x to y and keeps the largest even one.
"""


def choose_num(x, y):
    best = -1
    for number in range(x, y + 1):
        if number % 2 == 0:
            best = number
    return best
