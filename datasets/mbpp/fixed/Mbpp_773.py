"""Fixed ground truth for Mbpp/773 (occurance_substring).

category: bad-logic
witness: ["c", "c+"]
reason: the original searches the substring as a regular expression: 'c+' matches 'c' in
'c', and a pattern such as '(' raises; the task asks for the substring's occurrence, so
it is searched literally (occurance_substring('c', 'c+') is None; the jury finds it when
Qwen-Coder 480B and Turbo are two families).
"""


def occurance_substring(text, pattern):
    s = text.find(pattern)
    if s < 0:
        return None
    return (text[s:s + len(pattern)], s, s + len(pattern))
