"""HumanEval/141 file_name_check: any ASCII string; the function itself decides whether it is a valid file name."""


def pre(file_name: str) -> bool:
    # The rules speak of Latin letters 'a'-'z'/'A'-'Z' and digits '0'-'9', while the
    # reference uses str.isalpha/str.isdigit, which also accept other scripts and
    # digits like '²': keep to ASCII, where the two readings agree.
    return file_name.isascii()
