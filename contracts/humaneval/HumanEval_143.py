"""HumanEval/143 words_in_sentence: 1..100 characters, words of letters separated by single spaces."""


def pre(sentence: str) -> bool:
    # The docstring's constraints: 1 <= len(sentence) <= 100, only letters, and words
    # "separated by a space".
    if not 1 <= len(sentence) <= 100:
        return False
    return all(word.isalpha() for word in sentence.split(" "))
