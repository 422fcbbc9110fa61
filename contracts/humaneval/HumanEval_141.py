"""HumanEval/141 file_name_check: any string; the function itself decides whether it is a valid file name."""


def pre(file_name: str) -> bool:
    # Malformed names are part of the task (they give 'No'); the rules name their letters
    # ('a'-'z', 'A'-'Z') and digits ('0'-'9') exactly, so other scripts are no ambiguity.
    return True
