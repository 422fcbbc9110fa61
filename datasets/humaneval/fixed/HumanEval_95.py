"""Fixed ground truth for HumanEval/95 (check_dict_case).

category: bad-logic
witness: [{"a": "", "b": "", "C": ""}]
reason: once the second key agrees with the first, the original stops looking (`else:
break`), so keys after the second are never checked.
"""


def check_dict_case(dict):
    keys = list(dict.keys())
    if not keys or not all(isinstance(key, str) for key in keys):
        return False
    return all(key.islower() for key in keys) or all(key.isupper() for key in keys)
