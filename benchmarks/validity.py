"""Every input of a suite checked against its task's contract: types and precondition.

The contract is the one ``augment`` generated under (``load_contract``: the task's contract
file in the data folders, else the dataset's ``contract`` asserts, with the parameter
types from annotations or inferred from the base inputs). Prints the number of plus inputs
per task (avg / median / min / max) and every input that violates its contract, base
inputs apart (they are the dataset's own).

    python benchmarks/validity.py OUT [--dataset mbpp --dataset-file F] [--suite plus]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evalplus_ng.generate.contract import load_contract
from evalplus_ng.tasks.plusfile import load_plus_file
from evalplus_ng.tasks.registry import resolve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--dataset", default="humaneval")
    parser.add_argument("--dataset-file", type=Path, default=None)
    parser.add_argument("--suite", default="plus", help="plus, stress, mini, stress-mini")
    options = parser.parse_args()
    dataset = resolve(options.dataset, options.out / "data", options.dataset_file)
    tasks = load_plus_file(options.out / dataset.suite_file(options.suite))
    counts, bad_plus, bad_base = [], [], []
    for task in tasks:
        contract = load_contract(task, dataset.contract_path(task.task_id))
        counts.append(len(task.plus_inputs))
        for tier, inputs, bad in (("plus", task.plus_inputs, bad_plus),
                                  ("base", task.base_inputs, bad_base)):
            for args in inputs:
                reason = contract.violation(list(args))
                if reason is not None:
                    bad.append((task.task_id, tier, repr(args)[:120], reason))
    print(f"{len(tasks)} tasks; {options.suite} inputs per task: avg "
          f"{statistics.fmean(counts):.1f}, median {statistics.median(counts)}, "
          f"min {min(counts)}, max {max(counts)}; total {sum(counts)}")
    print(f"{options.suite} inputs violating their contract: {len(bad_plus)}")
    print(f"base inputs violating their contract: {len(bad_base)}")
    for row in bad_plus + bad_base:
        print("  " + " | ".join(row))


if __name__ == "__main__":
    main()
