"""``reduce``: a full suite (plus, or stress) reduced to its MINI by set cover over test
requirements (:mod:`evalplus_ng.reduce`), with ``reduction.md`` and ``reduction.json``."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalplus_ng.errors import InputError
from evalplus_ng.files import write_atomically, write_json
from evalplus_ng.oracle.groundtruth import run_ground_truth
from evalplus_ng.pipeline.context import Progress, Suites, Workspace
from evalplus_ng.reduce.mini import (
    CACHE_FOLDER,
    PAPER_ORDER,
    REPORT_FILE,
    SUMMARY_FILE,
    KillLookup,
    gather,
    profile_rows,
    reduce_all,
    reduced_task,
    report,
    warm,
    warm_on_cluster,
)
from evalplus_ng.reduce.profiles import load_profile, profile_names
from evalplus_ng.reduce.requirements import KINDS
from evalplus_ng.reduce.sample_kills import Answer, Candidate, candidates, per_model
from evalplus_ng.sandbox import Limits
from evalplus_ng.tasks.samples import read_sample_folder
from evalplus_ng.tasks.spec import MINI_OF, Dataset
from evalplus_ng.types import TaskId


@dataclass(frozen=True)
class ReduceSummary:
    """What ``reduce`` wrote and measured."""

    mini_path: Path
    report_path: Path
    tests_per_task: Mapping[str, float]
    #: Per profile: the share of the full suite's kills (base-passing samples it fails)
    #: that the reduced suite keeps; only when samples were given and some were killed.
    kept: Mapping[str, float]
    document: Mapping[str, Any] = field(default_factory=dict)
    #: Seconds spent on coverage, mutant and sample kills (cumulative over cached runs)
    #: and on this run; printed, not written (the report files are reproducible).
    seconds: Mapping[str, float] = field(default_factory=dict)
    #: With a Ray cluster: the tasks whose requirements each node computed (by node id).
    nodes: Mapping[str, int] = field(default_factory=dict)

    @property
    def spent_per_kind(self) -> list[tuple[str, float]]:
        """The cumulative seconds of each requirement kind that took any, named for a
        reader, in the registry's order."""
        return [(kind.label or name, self.seconds[name]) for name, kind in KINDS.items()
                if self.seconds.get(name)]



def _reduction_files(dataset: Dataset, suite: str) -> dict[str, str]:
    """Names of what reducing ``suite`` writes: the MINI, the report, its JSON, the cache."""
    mini = dataset.suite_file(MINI_OF[suite])
    if suite == "plus":
        return {"mini": mini, "report": REPORT_FILE, "summary": SUMMARY_FILE,
                "cache": CACHE_FOLDER}
    return {"mini": mini, "report": f"reduction-{suite}.md",
            "summary": f"reduction-{suite}.json", "cache": f"{CACHE_FOLDER}-{suite}"}


def run_reduce(space: Workspace, profile: str = "full", samples_dir: Path | None = None,
               progress: Progress | None = None,
               status: Callable[[str], None] | None = None,
               suite: str = "plus", suites: Suites | None = None) -> ReduceSummary:
    """Reduce the full suite in ``space`` with ``profile``; write the MINI suite and the
    report beside it.

    Without ``samples_dir`` only profiles without sample kills can run, and the
    report has no pass@1 columns. ``suite`` is ``plus`` (the MINI, reported for every
    shipped profile) or ``stress`` (the stress tier's own MINI, for ``profile`` alone:
    its inputs are the costly ones, so no other profile's requirements are gathered).
    On a Ray backend the requirements are computed a task a unit, instead of in the
    local pool's processes; the caches, the MINI and the report are the same.
    ``suites``: the suites a chain has in hand (read, written).
    """
    suites = suites or Suites(space)
    if suite not in MINI_OF:
        raise InputError(suite, None, f"no reduction for suite {suite!r}; known: "
                                      f"{', '.join(MINI_OF)}")
    dataset, out_dir, backend = space.dataset, space.out, space.backend
    files = _reduction_files(dataset, suite)
    say = status or (lambda _message: None)
    began = time.perf_counter()
    chosen = load_profile(profile)
    suite_path = space.suite_file(suite)
    if not suite_path.is_file():
        raise InputError(str(suite_path), None,
                         f"no {suite} suite here: run `evalplus-ng augment --dataset "
                         f"{dataset.name}` first")
    if chosen.uses_samples and samples_dir is None:
        raise InputError(str(samples_dir or "--samples"), None,
                         f"profile {profile!r} needs LLM samples: pass --samples DIR")
    tasks = suites.load(suite_path)
    by_id = {task.task_id: task for task in tasks}
    sample_table: dict[TaskId, list[Candidate]] | None = None
    answers: list[Answer] = []
    if samples_dir is not None:
        # Samples may answer tasks the suite lacks (a partial suite): read them against
        # the whole dataset, then keep the suite's.
        known = {**{t.task_id: t for t in dataset.load()}, **by_id}
        found = [(name, sample) for name, sample in read_sample_folder(samples_dir, known)
                 if sample.task_id in by_id]
        sample_table, answers = candidates(found)
        say(f"{len(answers)} samples ({sum(map(len, sample_table.values()))} distinct) "
            f"from {len(per_model(answers))} models")
    names = sorted(profile_names(), key=lambda n: (PAPER_ORDER.index(n)
                                                   if n in PAPER_ORDER else len(PAPER_ORDER), n))
    profiles = [p for p in map(load_profile, names) if p.suite == "plus"
                and (samples_dir is not None or not p.uses_samples)]
    if suite != "plus":
        profiles = [chosen]
    kinds = {kind for p in profiles for kind in p.requirements}
    folder = out_dir / files["cache"]
    hidden = space.answer_keys()
    nodes: Counter[str] = Counter()
    with backend.executor(Limits(), hidden) as sandbox:
        say(f"running the ground truth of {len(tasks)} task(s)")
        truths = run_ground_truth(tasks, sandbox, tasks_per_job=8)
        if not backend.ray:
            say("branch coverage and executed lines")
            warm(tasks, truths, folder, backend.workers, kinds)
        else:
            say("requirements on the Ray cluster")
            warm_on_cluster(tasks, truths, folder, backend, kinds, sample_table,
                            tuple(map(str, hidden)), progress, nodes)
        reqs, seconds = gather(tasks, truths, folder, sandbox, sample_table, progress, kinds)
        say("set cover and report")
        judge = KillLookup(sandbox, reqs) if samples_dir is not None else None
        rows, reductions = profile_rows(profiles, reqs, answers, judge)
    kept = reductions[chosen] if chosen in reductions else reduce_all(reqs, chosen)
    mini = [reduced_task(reqs[t.task_id], kept[t.task_id]) for t in tasks]
    mini_path = out_dir / files["mini"]
    suites.write(mini, mini_path)
    mutant_counts = [len(r.mutants) for r in reqs.values()]
    survivors = {t: [r.mutant_lines[i] for i, row in enumerate(r.mutants) if not row.killed]
                 for t, r in reqs.items()}
    # The report files hold no timings or absolute paths: same suite, same bytes.
    document = {
        "suite": dataset.suite_file(suite),
        "profile": profile,
        "mini": files["mini"],
        "profiles": rows,
        "mutants": {
            "total": sum(mutant_counts),
            "min": min(mutant_counts, default=0),
            "median": statistics.median(mutant_counts) if mutant_counts else 0,
            "max": max(mutant_counts, default=0),
            "none": [t for t, r in reqs.items() if not r.mutants],
            "survivors": {t: lines for t, lines in survivors.items() if lines},
        },
    }
    report_path = out_dir / files["report"]
    write_atomically(report_path, report(document))
    write_json(out_dir / files["summary"], document)
    return ReduceSummary(
        mini_path, report_path,
        {r["profile"]: r["tests_per_task"] for r in rows},
        {r["profile"]: r["kept"] for r in rows if r.get("kept") is not None},
        document,
        {**{k: round(v, 1) for k, v in seconds.items()},
         "this_run": round(time.perf_counter() - began, 1)},
        dict(nodes),
    )
