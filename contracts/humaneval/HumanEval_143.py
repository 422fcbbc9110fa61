"""HumanEval/143 words_in_sentence: 1..100 characters, words of ASCII letters separated by single spaces."""


def pre(sentence: str) -> bool:
    # Constraints: 1 <= len(sentence) <= 100, only letters, words separated by a space.
    if not 1 <= len(sentence) <= 100:
        return False
    return all(word.isascii() and word.isalpha() for word in sentence.split(" "))
