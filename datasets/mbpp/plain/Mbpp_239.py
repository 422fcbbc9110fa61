"""Plain reference for Mbpp/239 (get_total_number_of_sequences).

reason: the original fills a table over (largest value, length); the straightforward
solution recurses over the previous element, trying each next element from twice the
previous up to m, without memoising: it visits every sequence it counts, so where there
are many the input is left to the stress tier (a correct sample that tries every
previous element for every element, n m**2 steps, timed out on (3279, 7)).
"""


def get_total_number_of_sequences(m, n):
    def count(previous, left):
        if left == 0:
            return 1
        return sum(count(x, left - 1) for x in range(max(1, 2 * previous), m + 1))

    return count(0, n)
