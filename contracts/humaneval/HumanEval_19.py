"""HumanEval/19 sort_numbers: words 'zero'..'nine' separated by single spaces, or ''."""

_WORDS = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}


def pre(numbers: str) -> bool:
    if numbers == "":
        return True  # no numbers
    return all(word in _WORDS for word in numbers.split(" "))
