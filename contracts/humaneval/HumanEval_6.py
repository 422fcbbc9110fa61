"""HumanEval/6 parse_nested_parens: balanced groups separated by single spaces, or ''."""


def _balanced(group: str) -> bool:
    depth = 0
    for c in group:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth < 0:
                return False
        else:
            return False
    return depth == 0


def pre(paren_string: str) -> bool:
    if paren_string == "":
        return True  # no groups at all
    groups = paren_string.split(" ")
    # ambiguous: empty fields (two spaces in a row, a leading or trailing space): a group of depth 0 or none?
    if any(group == "" for group in groups):
        return False
    return all(_balanced(group) for group in groups)
