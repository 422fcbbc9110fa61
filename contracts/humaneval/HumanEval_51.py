"""HumanEval/51 remove_vowels: any string (empty, newlines) without non-ASCII letters or cased non-ASCII characters."""


def pre(text: str) -> bool:
    for c in text:
        if c.isascii():
            continue
        # ambiguous: non-ASCII letters (is 'é', 'ı' or 'あ' a vowel? 'ı'.upper() is 'I').
        if c.isalpha():
            return False
        # ambiguous: characters with a case that are not letters ('ⓐ'), case mappings that change length.
        if c.upper() != c.lower() or len(c.upper()) != 1 or len(c.lower()) != 1:
            return False
    return True
