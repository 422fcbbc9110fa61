"""How many of the full suite's kills a MINI keeps on models that did not choose its tests.

The models of a samples folder are split into two halves **by family** (prompt
variants and sizes of one model, and models fine-tuned from one another, stay on one
side; :data:`FAMILIES`), balanced by sample count. For each reduction profile and
each direction, the MINI is chosen with one half's samples (profiles without sample
kills use none) and judged on the other half:

* **kills**: samples of the judged half that pass the base tests and fail the full
  suite (a sample that fails the base tests is never counted);
* **kept**: those the MINI fails too;
* **pass@1 gap**: per model with at least ``--min-samples`` samples, |pass@1 on the
  MINI - pass@1 on the full suite|, the MINI chosen without the model's half.

Requirements come from ``OUT/reduction/`` (``evalplus-ng reduce`` fills it; what is
missing is computed and cached there). ``--lost`` lists, per profile, the tasks whose
kills the MINI loses most, with one lost sample each.

    python benchmarks/mini.py OUT ../shared/samples/humaneval [-j 2] [--json F]
        [--profiles full,offline] [--lost 15] [--split-seed N]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evalplus_ng.judge import JUDGE
from evalplus_ng.oracle.groundtruth import run_ground_truth
from evalplus_ng.reduce.mini import (
    CACHE_FOLDER,
    KillLookup,
    ReducedVerdicts,
    TaskRequirements,
    base_failures,
    gather,
    judge_reduced,
    pass_at_1,
    reduce_all,
    reduced_task,
)
from evalplus_ng.reduce.profiles import Profile, load_profile, profile_names
from evalplus_ng.reduce.sample_kills import Answer, candidates, per_model
from evalplus_ng.sandbox import Limits, Sandbox
from evalplus_ng.tasks.artifact import write_plus_file
from evalplus_ng.tasks.plusfile import load_plus_file
from evalplus_ng.tasks.registry import load_humaneval
from evalplus_ng.tasks.samples import read_sample_folder
from evalplus_ng.types import TaskId

#: The model families of the samples folders this measures (../shared/samples): a model
#: belongs to the first family one of whose words its name contains (case-insensitive); a
#: model no word names is a family of its own. Wizard-Vicuna is WizardLM's recipe on
#: Vicuna's data: with WizardLM. Manticore-Chat-Pyg-Guanaco is a Manticore fine-tune.
#: Qwen's code models are a family apart from its general Qwen3 models (trained apart).
#: Only this split reads families from names: the jury counts the families the user
#: declares (``--family``), never a name a file chooses.
FAMILIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("wizard", ("wizard",)), ("manticore", ("manticore",)),
    ("vicuna", ("vicuna", "vicunlocked")), ("guanaco", ("guanaco",)),
    ("falcon", ("falcon",)), ("redpajama", ("redpajama",)), ("starcoder", ("starcoder",)),
    ("hermes", ("hermes",)), ("openassistant", ("openassistant",)),
    ("open-llama", ("open-llama",)), ("gpt4-x-alpaca", ("gpt4-x-alpaca",)),
    ("qwen-coder", ("qwencoder", "qwen-coder", "qwen2.5-coder", "qwen3-coder")),
    ("qwen3", ("qwen3",)),
)


def family_of(model: str) -> str:
    """The family of a model (:data:`FAMILIES`), else the model itself."""
    name = model.lower()
    return next((family for family, words in FAMILIES if any(w in name for w in words)), model)


def halves(answers: Sequence[Answer], seed: int | None = None,
           ) -> tuple[frozenset[str], frozenset[str]]:
    """Two sets of models, whole families each, with about as many samples each.

    Families go, largest first, to the half with fewer samples so far (ties: by name);
    with ``seed``, in an order shuffled by it instead (another split, as balanced as
    that order allows): a profile tuned on one split is then judged on others.
    """
    sizes = Counter(family_of(a.model) for a in answers)
    members: dict[str, set[str]] = {}
    for answer in answers:
        members.setdefault(family_of(answer.model), set()).add(answer.model)
    sides: list[set[str]] = [set(), set()]
    counts = [0, 0]
    order = sorted(sizes, key=lambda f: (-sizes[f], f))
    if seed is not None:
        random.Random(seed).shuffle(order)
    for family in order:
        side = 0 if counts[0] <= counts[1] else 1
        sides[side] |= members[family]
        counts[side] += sizes[family]
    return frozenset(sides[0]), frozenset(sides[1])


def judge_half(profile: Profile, reqs: Mapping[TaskId, TaskRequirements],
               judged: Sequence[Answer], chooser_out: frozenset[str], lookup: KillLookup,
               failed_base: Mapping[Answer, bool]) -> tuple[dict[TaskId, list[int]],
                                                            ReducedVerdicts]:
    """The MINI chosen when ``chooser_out``'s samples chose no test, and ``judged`` on it."""
    suites = reduce_all(reqs, profile, chooser_out if profile.uses_samples else None)
    return suites, judge_reduced(reqs, judged, suites, lookup, failed_base)


def measure(reqs: Mapping[TaskId, TaskRequirements], answers: Sequence[Answer],
            lookup: KillLookup, profiles: Sequence[Profile], min_samples: int,
            lost: int, split_seed: int | None = None) -> dict[str, Any]:
    """The whole report (plain data)."""
    side_a, side_b = halves(answers, split_seed)
    failed_base = base_failures(reqs, answers, lookup)
    grouped = per_model(answers)
    report: dict[str, Any] = {
        "split_seed": split_seed,
        "halves": {"A": sorted(side_a), "B": sorted(side_b)},
        "samples": {"A": sum(a.model in side_a for a in answers),
                    "B": sum(a.model in side_b for a in answers)},
        "profiles": [],
    }
    for profile in profiles:
        row: dict[str, Any] = {"profile": profile.name}
        gaps: dict[str, float] = {}
        lost_by_task: Counter[str] = Counter()
        examples: dict[str, str] = {}
        total_kills = total_kept = 0
        sizes = []
        for name, chooser, judged_side in (("A->B", side_a, side_b), ("B->A", side_b, side_a)):
            judged = [a for a in answers if a.model in judged_side]
            suites, found = judge_half(profile, reqs, judged, judged_side, lookup,
                                       failed_base)
            sizes.append(statistics.mean(len(s) for s in suites.values()))
            row[name] = {"kills": len(found.kills), "kept": len(found.kept),
                         "share": len(found.kept) / len(found.kills) if found.kills else None,
                         "tests_per_task": sizes[-1], "chosen_by": sorted(chooser)}
            total_kills += len(found.kills)
            total_kept += len(found.kept)
            kept_set = set(found.kept)
            for answer in found.kills:
                if answer not in kept_set:
                    lost_by_task[answer.task_id] += 1
                    examples.setdefault(answer.task_id,
                                        f"{answer.file_name} #{answer.candidate}")
            for model in sorted(judged_side):
                mine = grouped.get(model, [])
                if len(mine) < min_samples:
                    continue
                gaps[model] = (pass_at_1(mine, found.passes_reduced)
                               - pass_at_1(mine, found.passes_full))
        row["tests_per_task"] = max(sizes)
        row["kills"] = total_kills
        row["kept"] = total_kept
        row["share"] = total_kept / total_kills if total_kills else None
        row["pass_at_1_gap"] = gaps
        row["lost"] = [{"task": t, "lost": n, "example": examples[t]}
                       for t, n in lost_by_task.most_common(lost)]
        report["profiles"].append(row)
    return report


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def print_report(report: Mapping[str, Any]) -> None:
    print(f"half A ({report['samples']['A']} samples): {', '.join(report['halves']['A'])}")
    print(f"half B ({report['samples']['B']} samples): {', '.join(report['halves']['B'])}")
    print()
    print(f"{'profile':<14}{'tests/task':>11}{'A->B kept':>18}{'B->A kept':>18}"
          f"{'both':>18}{'max |pass@1 gap|':>18}")
    for row in report["profiles"]:
        cells = []
        for name in ("A->B", "B->A"):
            side = row[name]
            cells.append(f"{side['kept']}/{side['kills']} {_percent(side['share'])}")
        both = f"{row['kept']}/{row['kills']} {_percent(row['share'])}"
        gap = max((abs(g) for g in row["pass_at_1_gap"].values()), default=0.0)
        print(f"{row['profile']:<14}{row['tests_per_task']:>11.1f}{cells[0]:>18}{cells[1]:>18}"
              f"{both:>18}{100 * gap:>17.2f}p")
    for row in report["profiles"]:
        if row["lost"]:
            print(f"\n{row['profile']}: tasks losing the most kills")
            for item in row["lost"]:
                print(f"  {item['task']:<15}{item['lost']:>4}  e.g. {item['example']}")


def write_halves(folder: Path, reqs: Mapping[TaskId, TaskRequirements],
                 profiles: Sequence[Profile], report: Mapping[str, Any]) -> None:
    """Each profile's MINI chosen without one half's samples, as suite files."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "halves.json").write_text(json.dumps(report["halves"], indent=1) + "\n",
                                        encoding="utf-8")
    for profile in profiles:
        for chooser, judged in (("A", "B"), ("B", "A")):
            held_out = frozenset(report["halves"][judged])
            kept = reduce_all(reqs, profile, held_out)
            mini = [reduced_task(r, kept[t]) for t, r in reqs.items()]
            write_plus_file(mini, folder / f"{profile.name}-chosen-by-{chooser}.jsonl.gz")


def variant(spec: str) -> Profile:
    """A profile from ``NAME=KIND+KIND[/KIND...][:BUDGET]`` (base tests kept; ``/``
    separates stages: covers made one after the other)."""
    name, _, rest = spec.partition("=")
    kinds, _, budget = rest.partition(":")
    stages = tuple(tuple(stage.split("+")) for stage in kinds.split("/"))
    return Profile(name, tuple(k for stage in stages for k in stage), keep_base=True,
                   budget=int(budget) if budget else None,
                   stages=stages if len(stages) > 1 else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder with HumanEvalPlus.jsonl.gz")
    parser.add_argument("samples", type=Path)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--profiles", default="", help="comma-separated (default: all)")
    parser.add_argument("--variant", action="append", default=[],
                        help="an ad-hoc profile NAME=KIND+KIND[/KIND][:BUDGET] (base kept), "
                             "e.g. offline16=coverage+mutants+cost:16; repeatable")
    parser.add_argument("--split-seed", type=int, default=None,
                        help="another family split: families in an order shuffled by this "
                             "seed [default: largest first, the balanced split]")
    parser.add_argument("--min-samples", type=int, default=100)
    parser.add_argument("--lost", type=int, default=10)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--write", type=Path, default=None, metavar="DIR",
                        help="also write each profile's MINI as chosen by each half "
                             "(DIR/<profile>-chosen-by-A.jsonl.gz, ...) for a neutral judge "
                             "(benchmarks/neutral.py); halves.json names the models")
    args = parser.parse_args()
    tasks = load_plus_file(args.out / "HumanEvalPlus.jsonl.gz")
    by_id = {t.task_id: t for t in tasks}
    known = {**{t.task_id: t for t in load_humaneval()}, **by_id}
    found = [(name, sample) for name, sample in read_sample_folder(args.samples, known)
             if sample.task_id in by_id]
    table, answers = candidates(found)
    names = [n for n in args.profiles.split(",") if n] or profile_names()
    profiles = [load_profile(name) for name in names] + [variant(v) for v in args.variant]
    with Sandbox(args.jobs, Limits(), judge=JUDGE) as sandbox:
        truths = run_ground_truth(tasks, sandbox)

        def progress(done: int, total: int) -> None:
            print(f"\rrequirements {done}/{total}", end="", file=sys.stderr, flush=True)

        reqs, _seconds = gather(tasks, truths, args.out / CACHE_FOLDER, sandbox, table, progress)
        print(file=sys.stderr)
        lookup = KillLookup(sandbox, reqs)
        report = measure(reqs, answers, lookup, profiles, args.min_samples, args.lost,
                         args.split_seed)
    print_report(report)
    if args.write is not None:
        write_halves(args.write, reqs, profiles, report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
