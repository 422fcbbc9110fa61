"""Fixed ground truth for HumanEval/140 (fix_spaces).

category: edge-case
witness: ["  "]
reason: for a run of exactly two spaces at the end of the text the original writes one
underscore instead of two.
"""

import re


def fix_spaces(text):
    return re.sub(r" {3,}| {1,2}", lambda run: "-" if len(run.group()) > 2 else "_" * len(run.group()), text)
