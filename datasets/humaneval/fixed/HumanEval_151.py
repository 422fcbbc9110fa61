"""Fixed ground truth for HumanEval/151 (double_the_difference).

category: edge-case
witness: [[1e-05]]
reason: the original takes a number for an integer when str() writes it without a '.', so a
float that str() writes in exponent notation (1e-05) counts as a positive odd integer.
"""


def double_the_difference(lst):
    return sum(x * x for x in lst if type(x) is int and x > 0 and x % 2 == 1)
