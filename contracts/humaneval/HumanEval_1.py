"""HumanEval/1 separate_paren_groups: '(', ')' and spaces; without the spaces, balanced groups."""


def pre(paren_string: str) -> bool:
    depth = 0
    for c in paren_string:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth < 0:
                return False
        elif c != " ":
            return False
    return depth == 0
