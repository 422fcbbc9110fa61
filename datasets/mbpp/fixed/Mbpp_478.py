"""Fixed ground truth for Mbpp/478 (remove_lowercase).

category: edge-case
witness: ["é"]
reason: the original removes the characters of the class [a-z], the ASCII lowercase
letters only: remove_lowercase('é') keeps 'é', a lowercase letter (the jury finds it when
Qwen-Coder 480B and Turbo are two families: their samples say '').
"""


def remove_lowercase(str1):
    return ''.join(c for c in str1 if not c.islower())
