"""Fixed ground truth for Mbpp/440 (find_adverb_position).

category: bad-logic
witness: ["alya"]
reason: the original takes the first match of the pattern "word characters, then ly" anywhere,
so it finds an adverb inside a word that does not end in 'ly' (find_adverb_position('alya')
gives (0, 3, 'aly'); 'only' in 'onlyx'). An adverb is a whole word ending in 'ly': the
match must end at a word boundary (found by review of the kills: six base-passing
samples of two models bound the word and find none in 'alya').
"""

import re


def find_adverb_position(text):
    for m in re.finditer(r"\w+ly\b", text):
        return (m.start(), m.end(), m.group(0))
