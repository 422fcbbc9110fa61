"""HumanEval/140 fix_spaces: any string (possibly empty) whose only whitespace is the space."""


def pre(text: str) -> bool:
    # ambiguous: whitespace other than the space (tab, newline): are these "spaces" to replace?
    return all(c == " " or not c.isspace() for c in text)
