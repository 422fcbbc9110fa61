"""python-fire's forms of a command line, rewritten as click's (evalplus's CLI is fire's).

``evalplus.evaluate`` 0.3.1 is ``fire.Fire(evaluate)`` over a function whose parameters
take every form fire accepts (read from fire 0.7.1's parser and checked by running it):

* ``--name value``, ``--name=value``, with dashes or underscores (``--base-only``);
* a parameter given no value (the next token is a flag, or there is none) is ``True``,
  and ``--noname`` is ``False`` (``--no-name`` is not: fire reads key ``no_name``);
* any other value is a Python literal where one parses (``False``, ``0``, ``None``),
  else the text itself: so ``--base_only=false`` is the string ``"false"``, true;
* a token that is no flag is positional, filling the parameters not named by a flag, in
  the function's order (``humaneval s.jsonl`` is the dataset, then the samples);
* a flag is ``--x`` or ``-x...`` (``-1`` is a value); a flag that names no parameter
  goes to ``**model_kwargs`` (evalplus then generates samples): short flags never
  abbreviate a parameter there, so ``-i`` is not ``--i_just_wanna_run``.

:func:`rewrite` turns such a command line into click's: each of the signature's
parameters as ``--name=value`` (a boolean as ``--name`` when true, nothing when false),
our own options' underscores as dashes, the rest as it was (click reports what it does
not know).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


class FireFormError(ValueError):
    """A command line in fire's forms that asks for something we do not do."""


@dataclass(frozen=True)
class FireSignature:
    """The parameters fire exposes, in the function's order (positional tokens fill them
    in that order), the booleans among them, and flags refused with a reason."""

    names: tuple[str, ...]
    booleans: frozenset[str]
    #: A flag of fire's ``**kwargs`` (no parameter) -> why we refuse it.
    refused: Mapping[str, str] = field(default_factory=dict)


#: ``evalplus.evaluate.evaluate`` of evalplus 0.3.1: parameters in order, booleans.
EVALPLUS_EVALUATE = FireSignature(
    names=("dataset", "samples", "base_only", "parallel", "i_just_wanna_run", "test_details",
           "min_time_limit", "gt_time_limit_factor", "mini", "noextreme", "version"),
    booleans=frozenset({"base_only", "i_just_wanna_run", "test_details", "mini",
                        "noextreme"}),
    refused={"model": "evalplus.evaluate generates samples with it (evalplus.codegen); "
                      "evalplus-ng judges samples only: generate them first, then pass "
                      "--samples FILE"},
)

_FLAG = re.compile(r"--|-[a-zA-Z]")


def is_flag(token: str) -> bool:
    """fire's test: ``--x`` or ``-x...`` (a negative number is a value)."""
    return _FLAG.match(token) is not None


def truthy(text: str) -> bool:
    """Whether fire's value of ``text`` is true: a Python literal where one parses
    (``False``, ``0``, ``None``, ``''`` are false), else the text (true unless empty)."""
    try:
        return bool(ast.literal_eval(text))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return bool(text)


def dashed(name: str) -> str:
    """The click option of a fire parameter: ``base_only`` -> ``--base-only``."""
    return "--" + name.replace("_", "-")


@dataclass(frozen=True)
class FireLine:
    """A command line read as fire reads it: in click's forms (:func:`rewrite`), and one
    notice per value read in a way its user may not expect."""

    args: list[str]
    notices: tuple[str, ...] = ()


def rewrite(argv: Sequence[str], signature: FireSignature,
            ours: Mapping[str, bool]) -> list[str]:
    """``argv`` in click's forms (:func:`read`)."""
    return read(argv, signature, ours).args


def _surprises(values: Mapping[str, str], filled: Mapping[str, str],
               signature: FireSignature) -> list[str]:
    """Notices for values fire reads in a way a user may not mean: a positional token that
    fills a parameter past the first two (``dataset``, ``samples``), and a boolean's value
    that is no Python literal (``false``, ``no``: text, so true)."""
    found = [f"the positional argument {token!r} is read as {dashed(name)}={token} (fire "
             f"fills {', '.join(signature.names[:3])}, ... in that order)"
             for name, token in filled.items() if name not in signature.names[:2]]
    for name, value in values.items():
        if name in signature.booleans and name not in filled and truthy(value):
            try:
                ast.literal_eval(value)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                found.append(f"--{name} {value}: fire reads the text {value!r} as true, "
                             f"so {dashed(name)} is on (False, 0 or --no{name} turn it "
                             "off)")
    return found


def read(argv: Sequence[str], signature: FireSignature,
         ours: Mapping[str, bool]) -> FireLine:
    """``argv`` in click's forms: our own options first, as typed (a long one's
    underscores as dashes where that names one of ``ours``), then the signature's
    parameters in its order, the last value of each as fire takes it; positional tokens
    fill the parameters no flag named, and any left over stay (for click to refuse).
    ``ours`` maps each of our option names to whether it takes a value; raises
    :class:`FireFormError` for a refused flag, and for ``--no-NAME`` of a boolean (fire's
    key ``no_NAME``, no parameter: not the opposite of ``--NAME``)."""
    values: dict[str, str] = {}
    filled: dict[str, str] = {}
    kept: list[str] = []
    positional: list[str] = []
    tail: list[str] = []  # after ``--``
    index = 0
    while index < len(argv):
        token = argv[index]
        index += 1
        if token == "--":  # fire's own flags follow; only its --help has a meaning here
            rest = argv[index:]
            tail = ["--help"] if {"-h", "--help"} & set(rest) else ["--", *rest]
            break
        if not is_flag(token):
            positional.append(token)
            continue
        key, equals, value = token.lstrip("-").partition("=")
        key = key.replace("-", "_")
        alone = not equals and (index == len(argv) or is_flag(argv[index]))
        if key in signature.names:
            name = key
        elif alone and key.startswith("no") and key[2:] in signature.booleans:
            name, equals, value = key[2:], "=", "False"
        else:
            if key.startswith("no_") and key[3:] in signature.booleans:
                raise FireFormError(
                    f"{token.partition('=')[0]}: no such option; {dashed(key[3:])} is off "
                    f"unless given (fire's form to turn it off: --no{key[3:]})")
            if key in signature.refused and token.startswith("--"):
                raise FireFormError(f"--{key}: {signature.refused[key]}")
            long = "--" + key.replace("_", "-") if token.startswith("--") else ""
            option = long if long in ours else token.partition("=")[0]
            kept.append(option + (f"={value}" if equals else ""))
            if ours.get(option) and not equals and index < len(argv):
                kept.append(argv[index])
                index += 1
            continue
        if equals:
            values[name] = value
        elif alone:
            values[name] = "True"
        else:
            values[name] = argv[index]
            index += 1
    for name in signature.names:
        if name not in values and positional:
            values[name] = filled[name] = positional.pop(0)
    for name in signature.names:
        if name in values and name in signature.booleans:
            kept += [dashed(name)] if truthy(values[name]) else []
        elif name in values:
            kept.append(f"{dashed(name)}={values[name]}")
    return FireLine(kept + positional + tail, tuple(_surprises(values, filled, signature)))
