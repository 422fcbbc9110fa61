"""HumanEval/19 sort_numbers: words 'zero'..'nine' separated by single spaces, or ''."""

_WORDS = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}


def pre(numbers: str) -> bool:
    if numbers == "":
        return True  # no numbers
    words = numbers.split(" ")
    # ambiguous: empty fields (two spaces in a row, a leading or trailing space): skipped or an error?
    if any(word == "" for word in words):
        return False
    # The docstring: "Valid choices are 'zero', 'one', ... and 'nine'".
    return all(word in _WORDS for word in words)
