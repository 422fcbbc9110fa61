"""Second opinions: ask a model (any OpenAI-compatible endpoint) which answer to a jury
lead is right, the ground truth's or the samples' majority's.

The model sees the task's prompt, the shrunk witness as a call and the two answers, as
"A" (the ground truth's) and "B" (the majority's), and is asked to end with one line
``VERDICT: A``, ``VERDICT: B`` or ``VERDICT: NEITHER``. A reply is only parsed, never run.
Answers are cached in one JSON file (``DATA/opinions.json``), keyed by the question's
digest, with their provenance (model, date, the reply): a lead asked before is not asked
again, and an unchanged audit reports the same opinion. An opinion informs the reviewer;
it never releases a held input by itself.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from evalplus_ng.files import read_json_table, write_atomically
from evalplus_ng.generate.llmseed import (
    Endpoint,
    Messages,
    RequestFailed,
    RetryPolicy,
    complete_with_retries,
)
from evalplus_ng.oracle.defects import Finding, call_text, text_of
from evalplus_ng.records import Task

SYSTEM = ("You check the expected outputs of tests of Python functions. You reason briefly, "
          "then end with exactly one verdict line.")
#: What a verdict letter says, as written into the finding.
MEANINGS = {"A": "the ground truth's answer is right", "B": "the samples' answer is right",
            "NEITHER": "neither answer is right"}
_VERDICT = re.compile(r"VERDICT:\s*\**\s*(A|B|NEITHER)\b", re.IGNORECASE)
#: Longest answer (as Python text) shown to the model.
MAX_ANSWER_CHARS = 2000


def build_messages(task: Task, finding: Finding) -> Messages:
    """The question on one lead: the task's prompt, the call and the two answers."""

    question = (
        f"Here is a Python task:\n\n```python\n{task.prompt.strip()}\n```\n\n"
        f"Two implementations disagree on this call:\n\n"
        f"```python\n{call_text(task.entry_point, finding.witness)}\n```\n\n"
        f"Answer A: `{text_of(finding.actual, MAX_ANSWER_CHARS)}`\n"
        f"Answer B: `{text_of(finding.expected, MAX_ANSWER_CHARS)}`\n\n"
        "Which answer does the task's description ask for? Think it through in a few "
        "sentences, then end with one line: `VERDICT: A`, `VERDICT: B` or "
        "`VERDICT: NEITHER`.")
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": question}]


def parse_verdict(text: str) -> str | None:
    """The last ``VERDICT:`` letter of a reply (``A``, ``B`` or ``NEITHER``), else None."""
    found = _VERDICT.findall(text)
    return found[-1].upper() if found else None


def question_key(model: str, messages: Messages) -> str:
    """The cache key of one question to one model."""
    text = json.dumps([model, messages], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


@dataclass(frozen=True)
class OpinionConfig:
    """Who is asked, and the provenance recorded with each answer."""

    model: str
    date: str


class SecondOpinion:
    """Asks ``endpoint`` about each lead, through the cache file ``cache``; callable as
    :data:`evalplus_ng.pipeline.audit.OpinionSource` (from several threads)."""

    def __init__(self, endpoint: Endpoint, config: OpinionConfig, cache: Path,
                 policy: RetryPolicy | None = None,
                 sleep: Callable[[float], object] | None = None) -> None:
        self.endpoint, self.config, self.cache = endpoint, config, cache
        self.policy = policy or RetryPolicy()
        self.sleep = sleep
        self.lock = threading.Lock()
        self.answers = read_cache(cache)
        self.asked = 0

    def __call__(self, task: Task, finding: Finding) -> Finding:
        messages = build_messages(task, finding)
        key = question_key(self.config.model, messages)
        with self.lock:
            known = self.answers.get(key)
        if known is None:
            try:
                if self.sleep is None:
                    reply = complete_with_retries(self.endpoint, messages, self.policy)
                else:
                    reply = complete_with_retries(self.endpoint, messages, self.policy,
                                                  self.sleep)
            except RequestFailed as exc:  # this lead only; asked again next time
                return replace(finding, opinion=f"{self.config.model}: no answer ({exc})")
            known = {"task_id": task.task_id,
                     "call": call_text(task.entry_point, finding.witness),
                     "model": self.config.model, "date": self.config.date,
                     "verdict": parse_verdict(reply.text) or "UNCLEAR", "reply": reply.text}
            with self.lock:
                self.asked += 1
                self.answers[key] = known
                self.cache.parent.mkdir(parents=True, exist_ok=True)
                write_atomically(self.cache, json.dumps(self.answers, indent=1,
                                                        sort_keys=True) + "\n")
        meaning = MEANINGS.get(str(known["verdict"]), "no verdict in its reply")
        return replace(finding, opinion=f"{known['model']} ({known['date']}): {meaning}")


def read_cache(path: Path) -> dict[str, dict[str, Any]]:
    """The cached answers; {} when there is no file; InputError when it is not one."""
    return read_json_table(path, lambda entry: {"model", "date", "verdict"} <= set(entry),
                           "{key: {model, date, verdict, ...}}")
