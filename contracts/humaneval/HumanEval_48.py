"""HumanEval/48 is_palindrome: any string, including the empty string, that reads the same either way under the strict and the everyday reading."""


def _everyday(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def pre(text: str) -> bool:
    # ambiguous: does case count, and do spaces and punctuation ("A man, a plan, a canal")?
    # The docstring does not say; keep the strings on which the strict reading (the
    # characters reversed) and the everyday one (letters and digits, case folded) agree.
    everyday = _everyday(text)
    return (text == text[::-1]) == (everyday == everyday[::-1])
