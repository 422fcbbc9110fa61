"""A program task's checker: the judge of outputs for "print any valid answer" tasks, where
another right program may print another answer than the expected one.

**Protocol.** A checker is the Python 3 source of a program (a tasks file's ``checker``
field: :attr:`~evalplus_ng.records.ProgramTask.checker`). It runs in the sandbox as any
program does (:mod:`evalplus_ng.sandbox.stdio`: a fresh process per run, the same jail and
memory cap, the test's time limit), once per output to judge. Its stdin is one line of
JSON, ASCII only (other characters escaped), an object of three strings::

    {"input": <the test's stdin>, "answer": <the test's expected output>,
     "output": <the candidate's stdout>}

``answer`` is the dataset's expected output, or the reference's on a test ``augment`` made.

* It **accepts** by ending normally (exit code 0) with ``ok`` as the first token of its
  stdout, in any case; what follows is not read.
* It **rejects** by ending normally with any other first token, or none: the test is a
  ``wrong_answer``, and the start of the checker's stdout (``wrong: 4 is no proper
  divisor of 9``) is the test's error.
* Anything else (an exception, another exit code, a crash, a timeout, more than
  :data:`CHECKER_OUTPUT_BYTES` on stdout, a stdin over the sandbox's file-size cap:
  :data:`STDIN_BYTES`, where the stdin is not even built) is a **checker error**
  (``checker_error``): the test fails, so the sample's verdict is fail, but its status
  says that the checker broke, not that the output is wrong. A checker rejects by
  printing, never by an exit code.

A checker runs only on an output that the task's equality does not pass already (an
output equal to the expected one passes unchecked), as soon as the program wrote it: the
program goes on to its next test only once the checker accepts, so the first reject ends
the sample unless every test is asked for
(:func:`evalplus_ng.evaluation.program_verdicts.judge_programs`). ``augment`` first has it judge the
reference's own outputs on the public tests, and skips a task whose checker rejects one
(:mod:`evalplus_ng.pipeline.programs.augment`).

A checker for "print a divisor d of n with 1 < d < n, or -1 if there is none"::

    import json, sys
    case = json.load(sys.stdin)
    n, got = int(case["input"]), case["output"].split()
    if len(got) != 1 or not got[0].lstrip("-").isdigit():
        print("wrong: one integer expected")
    elif int(got[0]) == -1:
        print("ok" if case["answer"].split() == ["-1"] else "wrong: a divisor exists")
    else:
        d = int(got[0])
        print("ok" if 1 < d < n and n % d == 0 else f"wrong: {d} is no proper divisor of {n}")
"""

from __future__ import annotations

import enum
import json

from evalplus_ng.records import Outcome, Status

#: What a checker may write on stdout: a verdict and a reason, not an essay.
CHECKER_OUTPUT_BYTES = 1 << 16
#: Characters of a checker's stdout (or error) kept as a failed test's error.
SHOWN_CHARS = 200


class Said(enum.Enum):
    """What a checker's run said of an output."""

    ACCEPT = "accept"
    REJECT = "reject"
    ERROR = "error"  #: the checker broke: raised, exited with a code, timed out, crashed


def checker_stdin(test_input: str, answer: str, output: str) -> str:
    """The checker's stdin for one output (the protocol's JSON object, ASCII only)."""
    return json.dumps({"input": test_input, "answer": answer, "output": output}) + "\n"


#: The most a checker's stdin may hold: the sandbox's file-size cap
#: (:attr:`evalplus_ng.sandbox.protocol.Limits.file_bytes`), past which the checker cannot
#: be given it (a checker error).
STDIN_BYTES = 16 << 20
#: Characters escaped at a time by :func:`stdin_bytes`.
_PIECE = 1 << 16


def stdin_bytes(test_input: str, answer: str, output: str) -> int:
    """The length of :func:`checker_stdin` for these texts, counted a piece at a time
    without building it (JSON escapes a character in up to 12 bytes)."""
    escape = json.encoder.encode_basestring_ascii
    quoted = sum(2 + sum(len(escape(text[k:k + _PIECE])) - 2
                         for k in range(0, len(text), _PIECE))
                 for text in (test_input, answer, output))
    return len(checker_stdin("", "", "")) - 6 + quoted


def said(outcome: Outcome, accepted: bool) -> Said:
    """What a checker's run says: ``accepted`` is the judge's reading of its stdout
    (:func:`evalplus_ng.textjudge.accepts`); a run that did not end normally is an error,
    decided by the outcome's kind, never its text."""
    if outcome.status is not Status.OK:
        return Said.ERROR
    return Said.ACCEPT if accepted else Said.REJECT


def message(outcome: Outcome) -> str:
    """What a failed check shows: the start of the checker's stdout (a reject), or of the
    sandbox's error (a checker error)."""
    text = outcome.value if outcome.status is Status.OK else outcome.error
    return text.strip()[:SHOWN_CHARS] if isinstance(text, str) else ""
