"""What a contest statement's Input section says about its input: the bounds of its values,
the names on its lines, the alphabets of its strings and what it guarantees.

Examples alone cannot tell that ``1 ≤ n ≤ 10^5`` or that "the given graph is a tree"; the
statement's **Input** section (the text between a line ``Input`` and the next line
``Output``) does. :func:`stated_input` reads it into a frozen :class:`Stated`. Pure: text
in, records out; nothing here knows the tests.

How the text is read:

* inequality chains (``1 ≤ l ≤ r ≤ n``, ``1 ≤ n, m ≤ 105``, ``0 ≤ a_i < 2^30``,
  ``|x_i| ≤ 10^9``, ``n - 1 ≤ m ≤ min(n(n-1)/2, 2·10^5)``) give one :class:`Bound` per named
  variable; a strict ``<`` on an integer becomes ``≤`` the next integer (tighter, so a
  value read as real is never let past what the statement allows); a side given by a
  variable is a :class:`Ref` (``scale * name + offset``), and the nearest number along the
  chain still gives the numeric side (``1 ≤ k < n ≤ 10`` -> ``k`` in [1, 9], below ``n``);
* superscripts the dataset lost (``1 ≤ n ≤ 105`` for 10^5, ``2·109``) are read as powers
  only where the section writes no ``^`` at all and the literal is ``10`` followed by an
  exponent 2..18, or where ``10k`` stands after a multiplier (``2·105``);
* a name drops its index subscript (``a_i``, ``ai``, ``a_{i}``, ``a[i]``, ``tij`` -> ``a``,
  ``t``) and keeps one that names (``s_x``, ``d_1`` -> ``s_x``, ``d1``);
* ``|s|`` is the length of ``s`` where ``s`` is a string of the section or the chain gives
  it a non-negative lower bound, else the absolute value of ``s``.

What is not understood is left out: a missing bound is unknown, never guessed.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from evalplus_ng.generate.programs.formula import Formula

Number = int | float

#: Guarantee kinds (:attr:`Guarantee.kind`).
DISTINCT = "distinct"  #: the values of ``names`` (or of the items described) are distinct
PERMUTATION = "permutation"  #: the list ``names`` is a permutation
TREE = "tree"  #: the edges form a tree
CONNECTED = "connected"  #: the graph is connected
NO_MULTI_EDGES = "no-multi-edges"  #: at most one edge joins two vertices
NO_SELF_LOOPS = "no-self-loops"  #: no edge joins a vertex to itself
SORTED = "sorted"  #: the values of ``names`` are given in increasing order
SUM = "sum"  #: the sum of ``names`` (over test cases, or the lists) is at most ``limit``
NOT_EQUAL = "not-equal"  #: the two ``names`` differ (``a_i ≠ b_i``)
ANSWER_EXISTS = "answer-exists"  #: the statement promises an answer exists
MAX_DEGREE = "max-degree"  #: each vertex ends at most ``limit`` of the edges
#: the items of the list ``names`` sum to at most ``limit`` and at least ``least``
#: (``1 ≤ a_1 + a_2 + ... + a_n ≤ 300000``)
ITEM_SUM = "item-sum"


@dataclass(frozen=True)
class Ref:
    """A side given by another variable: ``scale * name + offset`` (``n - 1``, ``2k``,
    ``n / 2``); ``name`` is ``""`` for a constant, ``|s|`` for the length of ``s``."""

    name: str
    scale: Fraction = Fraction(1)
    offset: Fraction = Fraction(0)

    def value(self, env: Mapping[str, Number | Fraction]) -> Fraction | None:
        """The side's value where ``env`` gives the variable (None: it does not)."""
        if not self.name:
            return self.offset
        if self.name not in env:
            return None
        return self.scale * Fraction(env[self.name]) + self.offset

    def __str__(self) -> str:
        text = self.name if self.scale == 1 else f"{self.scale}*{self.name}"
        if not self.name:
            return str(self.offset)
        if self.offset:
            text += f"{'+' if self.offset > 0 else '-'}{abs(self.offset)}"
        return text


@dataclass(frozen=True)
class Bound:
    """One stated bound of one variable (``name``, subscripts dropped; ``*`` for every
    number of the input). ``low``/``high`` are numbers (inclusive) or None when the
    statement gives none on that side, even through a chain; ``low_ref``/``high_ref`` the
    nearest variable on each side. ``length``: the bound is on the length of a string or
    sequence, not on a value. ``indexed`` and ``line`` tell apart two variables of one name
    (``t`` test cases and ``t_i`` times)."""

    name: str
    low: Number | None = None
    high: Number | None = None
    low_ref: Ref | None = None
    high_ref: Ref | None = None
    length: bool = False
    #: The statement wrote the name with an index (``a_i``, ``ai``): one of a list's values.
    indexed: bool = False
    #: The index in :attr:`Stated.lines` of the line described where the bound is stated
    #: (the sentence's own line, else the last one described before it; None: none yet).
    line: int | None = None
    #: The sides no number nor linear form of one variable says, ``(side, formula)``:
    #: ``("high", "n * (n - 1) / 2")`` for ``k ≤ n(n-1)/2``, ``("high", "n + m")``,
    #: ``("high", "")`` for ``m ≤ <image>`` (no formula reads it). A plan keeps such a
    #: side by its formula or not at all: the examples' range may break it.
    unread: tuple[tuple[str, str], ...] = ()

    def admits(self, value: Number | Fraction,
               env: Mapping[str, Number | Fraction] | None = None) -> bool:
        """Whether ``value`` (a length, where ``length``) is within the bound; a side given
        by a variable counts only where ``env`` gives it."""
        if self.low is not None and value < self.low:
            return False
        if self.high is not None and value > self.high:
            return False
        for ref, below in ((self.low_ref, True), (self.high_ref, False)):
            side = ref.value(env) if ref is not None and env is not None else None
            if side is not None and (value < side if below else value > side):
                return False
        return True


@dataclass(frozen=True)
class LineSpec:
    """One described line of the input, in the order the statement describes them.

    ``names``: its tokens' names in order (``("n", "m")``), or the list's one name;
    ``ordinal``: 1 for "the first line", 2 for "the second", -1 for "the last", None for
    "the next"; ``repeat``: the description stands for this many lines ("each of the next
    m lines"); ``list_length``: the line is a list of this many tokens named
    ``names[0]`` ("n integers a_1, ..., a_n"); ``kind``: ``int``, ``string`` or ``""``
    (not said); ``per_test``: described inside one test case or query."""

    names: tuple[str, ...]
    ordinal: int | None = None
    repeat: Ref | None = None
    list_length: Ref | None = None
    kind: str = ""
    per_test: bool = False
    text: str = field(default="", compare=False)


@dataclass(frozen=True)
class Guarantee:
    """A promise about the input (``kind`` one of the kinds above) about ``names`` (empty:
    the items the sentence describes), with ``limit`` for a :data:`SUM`."""

    kind: str
    names: tuple[str, ...] = ()
    limit: Number | None = None
    #: The least sum of an :data:`ITEM_SUM` (None: not said).
    least: Number | None = None


@dataclass(frozen=True)
class Stated:
    """What an Input section says: bounds, lines, alphabets (``(name, characters)``; the
    name ``""`` stands for strings the section does not name) and guarantees;
    ``test_count`` names the number of test cases where the input has several; ``free``:
    the section says its values meet no conditions but those it states ("You do not have
    any other conditions for these points")."""

    bounds: tuple[Bound, ...] = ()
    lines: tuple[LineSpec, ...] = ()
    alphabets: tuple[tuple[str, str], ...] = ()
    guarantees: frozenset[Guarantee] = frozenset()
    test_count: str | None = None
    free: bool = False

    def bound(self, name: str, length: bool = False, indexed: bool | None = None,
              line: int | None = None) -> Bound | None:
        """Every stated bound of ``name`` in one: the tightest numeric sides, the first
        variable sides (None: the statement bounds it nowhere). ``indexed`` keeps only the
        bounds written with (True) or without (False) an index; ``line`` prefers the bounds
        stated with that line where there are any."""
        found = [b for b in self.bounds if b.name == name and b.length == length and (
            indexed is None or b.indexed == indexed)]
        if line is not None and any(b.line == line for b in found):
            found = [b for b in found if b.line == line]
        if not found:
            return None
        lows = [b.low for b in found if b.low is not None]
        highs = [b.high for b in found if b.high is not None]
        return Bound(name, max(lows) if lows else None, min(highs) if highs else None,
                     next((b.low_ref for b in found if b.low_ref), None),
                     next((b.high_ref for b in found if b.high_ref), None), length,
                     all(b.indexed for b in found),
                     found[0].line if len({b.line for b in found}) == 1 else None,
                     tuple(dict.fromkeys(side for b in found for side in b.unread)))

    def alphabet(self, name: str) -> str | None:
        """The characters a string ``name`` may hold (None: not said)."""
        table = dict(self.alphabets)
        return table.get(name, table.get(""))


# --- the section and its sentences ---------------------------------------------------

_HEADING = re.compile(r"^\s*Input\s*$", re.MULTILINE)
_END = re.compile(r"^\s*Output\s*$", re.MULTILINE)


def input_section(prompt: str) -> str:
    """The text between a line ``Input`` and the next line ``Output`` ("" without one)."""
    start = _HEADING.search(prompt)
    if start is None:
        return ""
    end = _END.search(prompt, start.end())
    return prompt[start.end():end.start() if end else len(prompt)].strip()


_REPLACEMENTS = (
    ("≤", "<="), ("⩽", "<="), ("≥", ">="), ("⩾", ">="), ("≠", "!="), ("\u2212", "-"),
    ("⋅", "*"), ("·", "*"), ("\u00d7", "*"), ("…", "..."), ("\u00a0", " "), ("\\ ", " "),
    ("\\cdot", "*"), ("\\leq", "<="), ("\\le", "<="), ("\\geq", ">="), ("\\ge", ">="),
    ("\\neq", "!="), ("\\ne", "!="), ("\\ldots", "..."), ("\\dots", "..."), ("not=", "!="),
    ("“", '"'), ("”", '"'), ("\u2018", "'"), ("\u2019", "'"),
)


def _clean(text: str) -> str:
    """The section in plain ASCII operators: ``≤`` -> ``<=``, ``10^{18}`` -> ``10^(18)``,
    `` - 10`` after an operator -> ``-10``, ``200 000`` -> ``200000``."""
    for old, new in _REPLACEMENTS:
        text = text.replace(old, new)
    text = re.sub(r"\^\{([^{}]*)\}", r"^(\1)", text)
    text = re.sub(r"(^|[(\[,;:=<>]|\bthan|\bfrom)(\s*)-\s+(?=\d)", r"\1\2-", text)
    # Thousands written with spaces, where a number is expected.
    text = re.sub(r"([<>=]|\bto|\bof|\bmost|\bexceed|\bthan)(\s*-?)(\d{1,3}(?: \d{3})+)(?!\d|\.\d)",
                  lambda m: m.group(1) + m.group(2) + m.group(3).replace(" ", ""), text)
    text = re.sub(r"(?<![\d ])(\d{1,3}(?: \d{3})+)(?=\s*[<>)])",
                  lambda m: m.group(1).replace(" ", ""), text)
    return text


def _sentences(section: str) -> list[str]:
    """The section's sentences (paragraphs split at a full stop before a capital)."""
    out: list[str] = []
    for paragraph in re.split(r"\n\s*", section):
        for sentence in re.split(r"(?<=[A-Za-z0-9)'\"\]])\.\s+(?=[A-Z(])", paragraph):
            if sentence.strip():
                out.append(sentence.strip())
    return out


# --- names -----------------------------------------------------------------------------

_NAME = r"[A-Za-z][A-Za-z0-9]*(?:_\{[^{}]*\}|_\([^()]*\)|_[A-Za-z0-9]+)?(?:\[[^\]]*\])?"
_INDEX = re.compile(r"^(?:[ijkl]|[ijk]\s*[+-]\s*1|[ij]\s*,\s*[jk]|[ij][jk])$")
#: Words that are never a variable's name.
_WORDS = frozenset(
    "an the of and or is in on to at by as be it no if its all any one two six ten are "
    "not but for has per yes out off can may each than with from this that then both "
    "you we our new end non line lines".split())


def base_name(token: str) -> str:
    """A variable's name as the statement names it, index subscripts dropped: ``a_i``,
    ``a_{i}``, ``a[i]``, ``ai``, ``tij`` -> ``a``/``t``; ``d_1`` -> ``d1``; ``s_x`` stays."""
    token = token.strip()
    token = re.sub(r"\[[^\]]*\]$", "", token)
    match = re.fullmatch(r"([A-Za-z][A-Za-z0-9]*)_(?:\{([^{}]*)\}|\(([^()]*)\)|([A-Za-z0-9]+))",
                         token)
    if match:
        stem = match.group(1)
        sub = next(g for g in match.groups()[1:] if g is not None).strip()
        if _INDEX.match(sub):
            return stem
        return stem + sub if sub.isdigit() else f"{stem}_{sub}"
    match = re.fullmatch(r"([A-Za-z])(?:i|ij|j)", token)
    if match and token not in _WORDS:
        return match.group(1)
    return token


def _is_name(token: str) -> bool:
    """Whether a word can be a variable's name (short, or subscripted; not English)."""
    if not re.fullmatch(_NAME, token) or token.lower() in _WORDS:
        return False
    stem = re.match(r"[A-Za-z]+", token)
    return stem is not None and (len(stem.group(0)) <= 3 or "_" in token or "[" in token)


# --- numbers and linear expressions ----------------------------------------------------


@dataclass(frozen=True)
class _Linear:
    """``coef * name + const`` (``name`` "" for a number)."""

    name: str
    coef: Fraction
    const: Fraction


def _lost_power(match: re.Match[str]) -> str:
    exponent = int(match.group(2))
    return f"{match.group(1)}10^{exponent}" if 2 <= exponent <= 18 else match.group(0)


def powers_lost(section: str) -> bool:
    """Whether a statement's superscripts were lost (no ``^`` anywhere: ``n ≤ 105`` is
    ``10^5``)."""
    return "^" not in section


def restore_powers(expr: str, lost: bool) -> str:
    """``2*105`` -> ``2*10^5`` always; a bare ``109`` -> ``10^9`` where ``lost``."""
    expr = re.sub(r"(\d\s*\*\s*)10(\d{1,2})(?![\d^.])", _lost_power, expr)
    if lost:
        expr = re.sub(r"(?<![\d.^*])()10(\d{1,2})(?![\d^.])", _lost_power, expr)
    return expr


def _linear(node: ast.AST) -> _Linear | None:
    """A linear form of a parsed expression (None: not linear in one variable)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return _Linear("", Fraction(0), Fraction(str(node.value)))
    if isinstance(node, ast.Name):
        return _Linear(node.id, Fraction(1), Fraction(0))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _linear(node.operand)
        return None if inner is None else _Linear(inner.name, -inner.coef, -inner.const)
    if not isinstance(node, ast.BinOp):
        return None
    left, right = _linear(node.left), _linear(node.right)
    if left is None or right is None:
        return None
    if isinstance(node.op, ast.Add | ast.Sub):
        sign = 1 if isinstance(node.op, ast.Add) else -1
        if left.name and right.name and left.name != right.name:
            return None
        return _Linear(left.name or right.name, left.coef + sign * right.coef,
                       left.const + sign * right.const)
    if isinstance(node.op, ast.Mult):
        if left.name and right.name:
            return None
        number, other = (left, right) if not left.name else (right, left)
        return _Linear(other.name, other.coef * number.const, other.const * number.const)
    if isinstance(node.op, ast.Div) and not right.name and right.const:
        return _Linear(left.name, left.coef / right.const, left.const / right.const)
    if isinstance(node.op, ast.Pow) and not left.name and not right.name:
        if right.const.denominator != 1 or not 0 <= right.const <= 64:
            return None
        return _Linear("", Fraction(0), left.const ** int(right.const))
    return None


def _expression(text: str, lost: bool) -> tuple[_Linear | None, list[_Linear]]:
    """The linear value of one chain term, and for ``min(...)`` the linear arguments."""
    text = restore_powers(text.strip(), lost)
    mins = re.fullmatch(r"min\s*\((.*)\)", text)
    if mins:
        parts = _split_top(mins.group(1))
        args = [a for a in (_expression(p, lost)[0] for p in parts) if a is not None]
        return None, args
    code, names = _code(text)
    try:
        form = _linear(ast.parse(code, mode="eval").body)
    except (SyntaxError, ValueError, ZeroDivisionError, OverflowError):
        return None, []
    if form is None:
        return None, []
    if form.name:
        form = replace(form, name=names[form.name])
    return form, []


def _code(text: str) -> tuple[str, dict[str, str]]:
    """A term in Python syntax over placeholders ``v0``, ``v1``, ... and what each stands
    for (a base name, ``|s|`` for a length): ``2k`` -> ``2*v0``, ``n(n-1)`` ->
    ``v0*(v0-1)``, ``2^k`` -> ``2**v0``."""
    names: dict[str, str] = {}

    def name(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in ("min", "max"):
            return token
        if token.startswith("|"):
            key = "|" + base_name(token.strip("|").strip()) + "|"
        else:
            key = base_name(token)
        ident = next((k for k, v in names.items() if v == key), f"v{len(names)}")
        names[ident] = key
        return ident

    code = re.sub(r"\|[^|]+\||" + _NAME, name, text)
    code = re.sub(r"(\d)\s*(?=[v(])", r"\1*", code)  # 2k, 2(n+1)
    code = re.sub(r"\)\s*(?=[v(\d])", ")*", code)  # (n)(n-1)
    code = re.sub(r"(v\d+)\s*\(", r"\1*(", code)  # n(n-1)
    return code.replace("^", "**"), names


def _formula(text: str, lost: bool) -> Formula | None:
    """A chain term no linear form reads (``n(n-1)/2``, ``n + m``, ``2^k - 1``,
    ``min(n, m)``) as a formula over the statement's names (None: not one, or a length)."""
    text = restore_powers(text.strip(), lost)
    if not text or "|" in text:
        return None
    code, names = _code(text)
    formula = Formula.parse(code)
    if formula is None or not formula.names():
        return None
    return formula.renamed(names)


def _split_top(text: str) -> list[str]:
    """``text`` split at commas outside parentheses."""
    parts, depth, start = [], 0, 0
    for at, char in enumerate(text):
        depth += char == "("
        depth -= char == ")"
        if char == "," and depth == 0:
            parts.append(text[start:at])
            start = at + 1
    parts.append(text[start:])
    return parts


def _as_number(value: Fraction) -> Number:
    return int(value) if value.denominator == 1 else float(value)


# --- inequality chains ---------------------------------------------------------------

_TOKEN = re.compile(
    r"(?P<op><=|>=|!=|<|>|=)|(?P<abs>\|[^|<>=]{1,24}\|)|(?P<word>" + _NAME + r")"
    r"|(?P<num>\d+(?:\.\d+)?)|(?P<sym>\.\.\.|[-+*/^(),;:.])|(?P<space>\s+)|(?P<other>.)")


@dataclass(frozen=True)
class _Tok:
    kind: str
    text: str


def _tokens(text: str) -> list[_Tok]:
    return [_Tok(m.lastgroup or "other", m.group(0)) for m in _TOKEN.finditer(text)
            if m.lastgroup != "space"]


def _expr_end(toks: Sequence[_Tok], at: int) -> int:
    """The end of the expression that starts at ``at`` (``at`` itself: none; none starts
    with ``*``, ``/`` or ``^``: "* 1 ≤ N ≤ 10^6" is a bullet's)."""
    if at < len(toks) and toks[at].text in ("*", "/", "^"):
        return at
    depth, end, seen = 0, at, False
    while end < len(toks):
        tok = toks[end]
        if tok.kind == "num" or tok.kind == "abs" or (tok.kind == "word" and _is_name(
                tok.text)):
            seen = True
        elif tok.kind == "word" and tok.text in ("min", "max") and end + 1 < len(toks) \
                and toks[end + 1].text == "(":
            pass
        elif tok.text == "(":
            depth += 1
        elif tok.text == ")" and depth > 0:
            depth -= 1
        elif tok.text in ("-", "+", "*", "/", "^") or (tok.text == "," and depth > 0):
            pass
        elif tok.kind == "op" and depth > 0:
            return at
        else:
            break
        end += 1
    while end > at and toks[end - 1].text in ("-", "+", "*", "/", "^", "("):
        end -= 1
    if depth or not seen:
        # An unbalanced parenthesis: the expression starts after it or is none.
        return at
    return end


def _list_end(toks: Sequence[_Tok], at: int) -> int:
    """The end of a list of names (``n, m`` or ``|x_i|, |y_i|``) starting at ``at`` that
    an inequality follows (``at``: none)."""
    end = at
    while end < len(toks) and (toks[end].kind == "abs" or (
            toks[end].kind == "word" and _is_name(toks[end].text))):
        end += 1
        if end < len(toks) and toks[end].text == ",":
            end += 1
        else:
            break
    if end - at >= 3 and end < len(toks) and toks[end].kind == "op" \
            and toks[end].text in ("<=", "<", ">=", ">"):
        return end
    return at


def _chains(text: str) -> Iterator[tuple[list[list[_Tok]], list[str]]]:
    """Every inequality chain of a sentence: its terms (token lists) and operators."""
    toks = _tokens(text)
    at = 0
    while at < len(toks):
        terms: list[list[_Tok]] = []
        ops: list[str] = []
        pos = at
        while True:
            end = _list_end(toks, pos)
            if end == pos:
                end = _expr_end(toks, pos)
            if end == pos:
                break
            terms.append(list(toks[pos:end]))
            if end < len(toks) and toks[end].kind == "op" and toks[end].text != "!=":
                ops.append(toks[end].text)
                pos = end + 1
                continue
            pos = end
            break
        # "0 ≤ m ≤ <image>": a chain whose last side is lost still bounds what it can (an
        # empty last term stands for the side lost)
        if len(terms) >= 2 and len(ops) in (len(terms) - 1, len(terms)):
            yield terms + [[]] * (len(ops) - len(terms) + 1), ops
            at = pos
        else:
            at += 1


def _names_of(term: Sequence[_Tok]) -> list[tuple[str, bool, bool]] | None:
    """The names of a term that is a list of names (``(name, in bars, indexed)``), else
    None."""
    items = [t for t in term if t.text != ","]
    if not all(t.kind == "abs" or (t.kind == "word" and _is_name(t.text)) for t in items):
        return None
    if len(items) > 1 and any(t.text != "," for t in term[1::2]):
        return None
    out = []
    for tok in items:
        raw = tok.text.strip("|").strip()
        name = base_name(raw)
        out.append((name, tok.kind == "abs", name != raw.replace("_", "")))
    return out


def _chain_bounds(terms: list[list[_Tok]], ops: list[str], lost: bool,
                  strings: set[str]) -> Iterator[Bound]:
    """The bounds one chain states, for every name in it."""
    if set(ops) <= {">=", ">"}:
        terms, ops = terms[::-1], [o.replace(">", "<") for o in ops[::-1]]
    if ops == ["="]:
        ops = ["<=", "<="]
        terms = [terms[1], terms[0], terms[1]]
    if not set(ops) <= {"<=", "<"}:
        return
    values: list[tuple[_Linear | None, list[_Linear]]] = []
    names: list[list[tuple[str, bool, bool]] | None] = []
    formulas: list[Formula | None] = []
    for term in terms:
        listed = _names_of(term) if term else None
        names.append(listed)
        text = " ".join(t.text for t in term)
        values.append(_expression(text, lost))
        formula = _formula(text, lost) if values[-1][0] is None else None
        mins = values[-1][1]
        # min(n, m), min(n(n-1)/2, 2·10^5): a side no ref nor number says whole
        if mins and formula is not None and sum(1 for m in mins if m.name) <= 1 and len(
                mins) == len(_split_top(text[text.index("(") + 1:text.rindex(")")])):
            formula = None
        formulas.append(formula)
    for index, listed in enumerate(names):
        if listed is None or not terms[index]:
            continue
        scalar = not any(indexed for _, _, indexed in listed)
        low, low_ref, low_unread = _side(values, names, formulas, ops, index, -1, scalar)
        high, high_ref, high_unread = _side(values, names, formulas, ops, index, +1, scalar)
        unread = tuple((side, text) for side, text in (("low", low_unread), (
            "high", high_unread)) if text is not None)
        for name, bars, indexed in listed:
            length = bars and (name in strings or (low is not None and low >= 0))
            lo, hi, below, above = low, high, low_ref, high_ref
            if bars and not length:
                if hi is None:
                    continue
                lo = -hi if lo is None else lo
                if low_ref is not None or high_ref is not None:
                    continue
            if below is not None and below.name == name:
                below = None  # "a_j < a_i": an order among a list's values
            if above is not None and above.name == name:
                above = None
            if bars and not length:
                below = above = None
            if lo is None and hi is None and below is None and above is None and not unread:
                continue
            yield Bound(name, lo, hi, below, above, length, indexed, unread=unread)


def _side(values: Sequence[tuple[_Linear | None, list[_Linear]]],
          names: Sequence[list[tuple[str, bool, bool]] | None],
          formulas: Sequence[Formula | None], ops: Sequence[str], index: int,
          step: int, scalar: bool) -> tuple[Number | None, Ref | None, str | None]:
    """The numeric bound and the nearest variable bound of term ``index`` on one side
    (``step`` -1: below, +1: above), strict operators made inclusive on integers, and
    where the nearest term the side reaches is no number nor linear form of one variable
    (``n(n-1)/2``, ``n + m``, ``min(n, m)``, a lost ``<image>``) its formula (``""``: none
    reads it; None: the side is read). A ``scalar`` takes no number through a list's
    value (``1 <= x_i < y_i <= n`` says nothing of ``n`` when there is no pair)."""
    strict, ref, at = 0, None, index
    while 0 <= at + step < len(values):
        op = ops[at] if step > 0 else ops[at - 1]
        strict += op == "<"
        at += step
        value, mins = values[at]
        listed = names[at]
        if value is None and mins and step > 0:
            numbers = [m.const for m in mins if not m.name]
            named = [m for m in mins if m.name]
            if ref is None:
                ref = next((_ref(m, -strict) for m in named), None)
            # min(n, m): the ref keeps n only, the formula both (a formula only where the
            # number and the ref do not say the side whole)
            formula = formulas[at]
            unread = _unread(formula, strict, step) if formula is not None else None
            if numbers:
                return _bounded(min(numbers), strict, step), ref, unread
            return None, ref, unread
        if value is None:
            if listed is not None or ref is not None:
                return None, ref, None
            return None, ref, _unread(formulas[at], strict, step)
        if not value.name:
            return _bounded(value.const, strict, step), ref, None
        if ref is None and (listed is None or len(listed) == 1):
            ref = _ref(value, strict * -step)
        if scalar and listed is not None and any(indexed for _, _, indexed in listed):
            return None, ref, None
    return None, ref, None


def _unread(formula: Formula | None, strict: int, step: int) -> str:
    """The text of an unread side: its formula, moved by ``strict`` inward (``k < n + m``
    is ``k <= n + m - 1`` on integers), or ``""`` where no formula reads it."""
    if formula is None:
        return ""
    return f"({formula}) {'-' if step > 0 else '+'} {strict}" if strict else str(formula)


def _bounded(value: Fraction, strict: int, step: int) -> Number:
    if strict and value.denominator == 1:
        value -= strict * step
    return _as_number(value)


def _ref(value: _Linear, offset: int) -> Ref:
    return Ref(value.name, value.coef, value.const + offset)


# --- the sentences' other facts --------------------------------------------------------

_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "forth": 4, "fifth": 5,
             "sixth": 6, "last": -1, "final": -1, "only": 1, "single": 1,
             "first and only": 1, "next": None, "following": None}
_HEAD = re.compile(
    r"^(?:in\s+)?(?:the\s+)?(?P<ord>first and only|first|second|third|fourth|forth|fifth|"
    r"sixth|last|final|only|single|next|following)\s+(?:input\s+)?line"
    r"(?P<scope>\s+(?:of|in|for)\s+(?:the\s+|each\s+)?(?:input(?:\s+data)?(?:\s+file)?|test(?:\s+case)?|"
    r"query|testcase))?\b", re.IGNORECASE)
_REPEAT = re.compile(
    r"^(?:each of\s+|the i-th of\s+)?(?:the\s+)?(?:then\s+|next\s+|following\s+|after that,?\s+)+"
    r"(?P<count>[A-Za-z0-9+\-* ]{1,12}?)\s+lines?\b"
    r"|^(?:then\s+)?(?P<count2>[A-Za-z0-9+\-* ]{1,12}?)"
    r"\s+lines\s+follow|^then there follow (?P<count3>[A-Za-z0-9+\-* ]{1,12}?)\s+lines"
    r"|^(?:this|it|that)\s+is\s+followed\s+by\s+(?P<count5>[A-Za-z0-9+\-* ]{1,12}?)\s+lines\b"
    r"|^(?:after that,?\s+|then,?\s+)?(?P<count4>[A-Za-z0-9+\-* ]{1,12}?)\s+(?:integers|numbers)"
    r"\s+(?:are given|follow),?\s+one per line"
    r"|^(?:the\s+)?(?:following|next|remaining|subsequent)\s+lines(?P<some>)(?=\s+(?:contains?|describe))",
    re.IGNORECASE)
#: "The input consists of eight lines": a block of a constant number of lines.
#: "Each of the three lines of the input contains two integers": the same, each line alike.
_FIXED_LINES = re.compile(
    r"^(?:the\s+)?input\s+(?:data\s+)?(?:consists of|contains)\s+(?:exactly\s+)?"
    r"(?P<count>\d+|two|three|four|five|six|seven|eight|nine|ten)\s+lines\b"
    r"|^each of the (?P<each>\d+|two|three|four|five|six|seven|eight|nine|ten)\s+lines\s+"
    r"of the input\b", re.IGNORECASE)
#: "the coordinates of the points written as "x y"": a line's names in the format it
#: shows (each a name, so the format is no literal text).
_FORMAT = re.compile(r"\b(?:written as|in the (?:format|form))\s*\"([^\"]{1,40})\"")
#: "road i is given as", "the i-th road is described by": the line's names follow.
_GIVEN_AS = re.compile(r"^[^()]*?\b(?:[a-z]+ i|the i-th [a-z]+|(?:each|every) [a-z]+) is "
                       r"(?:given|described|denoted|specified) (?:as|by)\s+", re.IGNORECASE)
#: "a pair of cities u_i, v_i": two integers, their names after the noun.
_PAIR_OF = re.compile(r"^\s*(?:a|the)\s+pair\s+of\s+(?!integers\b|numbers\b)[a-z]{4,}\s+(?="
                      + _NAME + r"\b)")
#: "m lines contain one edge each in form ai, bi and wi": the names after it, unquoted.
_IN_FORM = re.compile(r"\bin (?:the )?form(?:at)?\s+(?=[A-Za-z])")
#: The count of "the following lines contain ...": lines follow, the statement says not how
#: many (any count of the grammar's agrees with it).
SOME = Ref("...")
_NUMBER_WORDS = {"one": 1, "single": 1, "an": 1, "the only": 1, "two": 2, "pair of": 2,
                 "three": 3, "four": 4, "five": 5, "six": 6}
_QUANTITY = re.compile(
    r"\b(?P<word>a single|the single|the only|one|single|an|two|three|four|five|six|"
    r"a pair of|pair of|[2-6])\s+(?:[a-z-]+\s+){0,2}?(?:integers?|numbers?)\b")
_FILLER = frozenset(
    "a the single only one two three four five six space-separated space separated "
    "positive non-negative nonnegative natural integer integers number numbers pair of "
    "distinct values value separated by spaces space pairs".split())
_DOTS = re.compile(r"(?P<first>" + _NAME + r")\s*,\s*(?:" + _NAME + r"\s*,\s*)*"
                   r"(?:\.\.\.|\.\.)\s*,?\s*(?P<last>" + _NAME + r"(?:\s*[-+]\s*\d+)?)")
_COUNTED = re.compile(
    r"(?P<count>\b\d*[a-zA-Z](?:\s*[-+]\s*\d+)?|\b\d+)\s+(?:(?:space-separated|distinct|positive|"
    r"non-negative|integer|natural|more)\s+)*(?:integers|numbers|words|letters|characters|digits)"
    r"(?:\s*:)?\s*(?:(?P<name>" + _NAME + r")\b(?!\s*,\s*\.)|denoting the array (?P<arr>\w+))?")


def _count(text: str, lost: bool) -> Ref | None:
    form, _ = _expression(text, lost)
    if form is None:
        return None
    return Ref(form.name, form.coef, form.const)


def _dotted_list(phrase: str, lost: bool) -> tuple[str, Ref | None] | None:
    """``a_1, a_2, ..., a_n`` -> (``a``, ``n``): the list's name and its length."""
    match = _DOTS.search(phrase)
    if not match:
        return None
    first, last = match.group("first"), re.sub(r"\s+", "", match.group("last"))
    stem = ""
    for a, b in zip(first, last, strict=False):
        if a != b:
            break
        stem += a
    stem = stem.rstrip("_[{(")
    if not stem or not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", stem):
        return None
    start = first[len(stem):].strip("_[]{}() ")
    end = last[len(stem):].strip("_ ").replace("{", "(").replace("}", ")").strip("[]")
    if not re.fullmatch(r"\d+", start):
        return stem, None
    length = _count(f"({end}) - {start} + 1", lost)
    return stem, length


def _line_spec(sentence: str, lost: bool, chain_names: list[str]) -> LineSpec | None:
    """The line a sentence describes, where it describes one."""
    head = _HEAD.match(sentence)
    repeat = _REPEAT.match(sentence)
    single = re.match(r"^(?:the\s+)?input\s+(?:consists of|contains)\s+(?:a single|one)\s+"
                      r"(?:line|integer|string)", sentence, re.IGNORECASE)
    fixed = _FIXED_LINES.match(sentence) if head is None and repeat is None else None
    if head is None and repeat is None and single is None and fixed is None:
        return None
    ordinal = _ORDINALS[head.group("ord").lower()] if head else (1 if single else None)
    count = None
    if fixed:
        word = (fixed.group("count") or fixed.group("each")).lower()
        count = Ref("", Fraction(1), Fraction(_COUNT_WORDS.get(word) or int(word)))
        repeat = fixed
    elif repeat and repeat.group("some") is not None:
        count = SOME
    elif repeat:
        text = next((g for g in repeat.groups() if g), "").strip()
        count = _count(text, lost)
        if count is None:
            return None
    scope = head.group("scope") if head else None
    per_test = bool(scope and re.search(r"test|query", scope, re.IGNORECASE))
    after = sentence[(head or repeat or single).end():]  # type: ignore[union-attr]
    verb = re.search(r"\b(?:contain(?:s|ing)?|consists? of|will contain|"
                     r"there (?:is|are|will be))\b", after) or re.search(
                         r"\b(?:is|are) given\b|\bhas\b|\bdescribes?\b", after)
    if verb is None:
        rest = after
    elif re.search(r"\b(?:is|are) given\b", verb.group(0)) and re.search(
            r"\w", after[:verb.start()]):
        rest = after[:verb.start()]  # "In the first line three integers n, m are given"
    else:
        rest = after[verb.end():]
    # "m lines contain roads: road i is given as a pair of cities u_i, v_i": the names
    given = _GIVEN_AS.search(rest)
    if given:
        rest = _PAIR_OF.sub("two integers ", rest[given.end():], count=1)
    phrase = re.split(r"\(|\s[\u2014\u2013]\s|—|;|, where|\bwhere\b|\bthat\b|\bwhich\b|\bdenoting\b"
                      r"|\bmeaning\b|\brepresenting\b|\bdescribing\b|\s-\s(?=[a-z]{2,})|"
                      r"\bseparated by\b(?!\s+spaces\s*:)", rest)[0]
    if count is not None:
        # "The next n lines contain n pairs of integers ti and ci": two on each line
        phrase = re.sub(r"^\s*(?:[A-Za-z0-9]+\s+)?pairs\s+of\s+(integers|numbers)\b",
                        r"two \1", phrase, count=1)
    kind = ""
    if re.search(r"\bstrings?\b|\bwords?\b|\bcharacters\b|\bletters\b", phrase,
                 re.IGNORECASE):
        kind = "string"
    elif re.search(r"\bintegers?\b|\bnumbers?\b", phrase, re.IGNORECASE):
        kind = "int"
    listed = _dotted_list(phrase, lost)
    counted = _COUNTED.search(phrase)
    if listed is not None:
        name, length = listed
        if count is not None:
            # "Next n lines contain strings p_1, ..., p_n": one of them a line.
            return LineSpec((name,), ordinal, count, None, kind or "int", per_test, sentence)
        if counted and counted.group("count").strip().lower() not in _NUMBER_WORDS:
            length = _count(counted.group("count"), lost) or length
        return LineSpec((name,), ordinal, count, length, kind or "int", per_test, sentence)
    if counted and re.search(r"[A-Za-z]", counted.group("count")) \
            and counted.group("count").strip().lower() not in _NUMBER_WORDS \
            and counted.group("count").strip().lower() not in _FILLER:
        name = counted.group("name") or counted.group("arr")
        length = _count(counted.group("count"), lost)
        if length is not None:
            names: tuple[str, ...] = (base_name(name),) if name and _is_name(name) else ()
            if re.search(r"letters|characters|digits", counted.group(0)):
                return LineSpec(names, ordinal, count, length, "string", per_test, sentence)
            return LineSpec(names, ordinal, count, length, kind or "int", per_test, sentence)
    scalars = _scalar_names(phrase)
    shown = _FORMAT.search(phrase)
    if not scalars and shown and all(_is_name(word) for word in shown.group(1).split()):
        scalars = tuple(base_name(word) for word in shown.group(1).split())
    formed = _IN_FORM.search(phrase)
    if not scalars and formed:
        scalars = _scalar_names(phrase[formed.end():])
    quantity = _QUANTITY.search(phrase)
    word = re.sub(r"^(?:a|the) ", "", quantity.group("word")) if quantity else ""
    wanted = int(word) if word.isdigit() else _NUMBER_WORDS.get(word)
    if wanted is None and re.search(r"\b(?:integer|string|number)\b", phrase) and not \
            re.search(r"\b(?:integers|strings|numbers)\b", phrase):
        wanted = 1
    if wanted is not None and len(scalars) != wanted:
        scalars = tuple(chain_names) if len(chain_names) == wanted else _after_dash(
            rest, wanted)
    return LineSpec(scalars, ordinal, count, None, kind, per_test, sentence)


#: A name a phrase introduces: "the number of vertices n", "a prime p".
_INTRODUCED = re.compile(r"\b(?:the|a|an)\s+(?:[a-z-]+\s+){1,4}?(" + _NAME
                         + r")(?=\s*(?:,|\band\b|\bof\b|$))")


def _after_dash(rest: str, wanted: int) -> tuple[str, ...]:
    """The ``wanted`` names a line's phrase gives after a dash, where it gives them there
    ("two integers — the number of vertices n and the number of edges m", "three integers
    — a_i, b_i (...) and c_i (...)"); none otherwise."""
    parts = re.split(r"\s[\u2014\u2013]\s|\u2014", rest, maxsplit=1)
    if len(parts) < 2:
        return ()
    tail = re.split(r";|\.(?:\s|$)", re.sub(r"\([^()]*\)", " ", parts[1]))[0].strip()
    listed = _scalar_names(tail)
    if len(listed) == wanted:
        return listed
    named = tuple(base_name(name) for name in _INTRODUCED.findall(tail) if _is_name(name))
    return named if len(named) == wanted else ()


def _scalar_names(phrase: str) -> tuple[str, ...]:
    """The names a line's phrase lists (``two integers n and m`` -> n, m)."""
    words = re.findall(r"[A-Za-z][A-Za-z0-9-]*(?:_\{[^{}]*\}|_[A-Za-z0-9]+)?|[,:]|\S", phrase)
    names: list[str] = []
    at = 0
    while at < len(words) and (words[at].lower() in _FILLER or words[at] in (":", "—")):
        at += 1
    while at < len(words):
        word = words[at]
        if word in (",", "and"):
            at += 1
            continue
        # "a" is an article where an English word follows it.
        article = word in ("a", "A") and at + 1 < len(words) and (
            words[at + 1].lower() in _FILLER or len(words[at + 1]) > 3)
        if _is_name(word) and not article:
            names.append(base_name(word))
            at += 1
            continue
        if word.lower() in ("string", "strings", "word", "integer", "the") or article:
            at += 1
            continue
        break
    return tuple(names)


_CLASSES = (
    (re.compile(r"first (\w+) (?:lowercase|small|lower case) (?:english|latin) letters",
                re.IGNORECASE), ""),
    (re.compile(r"(?:lowercase|small|lower case|lower-case)(?: and uppercase)?(?: \w+)?"
                r" letters?|(?:uppercase|capital)(?: and lowercase)? (?:\w+ )?letters?",
                re.IGNORECASE), ""),
    (re.compile(r"\bdigits?\b", re.IGNORECASE), "0123456789"),
)
_LOWER = "abcdefghijklmnopqrstuvwxyz"
_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10}


def _alphabet(sentence: str) -> str | None:
    """The characters a sentence says its string consists of (None: it says none)."""
    if not re.search(r"consist|contain|only|letter|character|digits|sequence",
                     sentence, re.IGNORECASE):
        return None
    chars: set[str] = set()
    said = False
    first = _CLASSES[0][0].search(sentence)
    if first and first.group(1).lower() in _COUNT_WORDS:
        chars |= set(_LOWER[:_COUNT_WORDS[first.group(1).lower()]])
        said = True
    else:
        for match in _CLASSES[1][0].finditer(sentence):
            text = match.group(0).lower()
            if re.match(r"\s*['\"]", sentence[match.end():]):
                continue  # "small English letters 'a', 'b'": the quoted ones only
            said = True
            if "lower" in text or "small" in text:
                chars |= set(_LOWER)
            if "upper" in text or "capital" in text:
                chars |= set(_LOWER.upper())
    if _CLASSES[2][0].search(sentence) and re.search(
            r"(?:consist|contain|only|of)\w*\s[^.]*digit", sentence, re.IGNORECASE):
        digits = re.search(r"digits?\s+(?:from\s+)?(\d)\s+(?:to|-)\s+(\d)", sentence)
        quoted_digits = re.search(r"digits?\s+((?:['\"]\d['\"][\s,]*(?:or|and)?\s*)+)", sentence)
        if digits:
            chars |= {str(d) for d in range(int(digits.group(1)), int(digits.group(2)) + 1)}
        elif quoted_digits:
            chars |= set(re.findall(r"\d", quoted_digits.group(1)))
        else:
            chars |= set("0123456789")
        said = True
    lead = re.search(r"(?:consist\w*|contain\w*|only|of|letters|characters|symbols)\s+(?:of\s+)?"
                     r"(?:only\s+)?(?:the\s+)?(?:characters?\s+|letters?\s+|symbols?\s+)?"
                     r"(['\"]).\1", sentence, re.IGNORECASE)
    if lead:
        quoted = re.findall(r"(['\"])(.)\1", sentence[lead.start():])
        chars |= {c for _, c in quoted}
        said = True
    if "commas" in sentence:
        chars.add(",")
    return "".join(sorted(chars)) if said and chars else None


_STRING_NAME = re.compile(r"\b(?:string|word|heading|strings)\s+(" + _NAME + r")\b")


_SMALL = r"\d+|one|two|three|four|five|six|seven|eight|nine|ten"
#: "each student has no more than two archenemies", "the degree of each vertex does not
#: exceed 3": at most K edges end at any vertex (an in- or out-degree is another fact).
_DEGREE = re.compile(
    r"\b(?:each|every|any)\s+(?:[a-z-]+\s+){1,2}?(?:has|have)\s+(?:(?:a\s+)?degree\s+)?"
    r"(?:no more than|not more than|at most|not exceeding)\s+(?P<k>" + _SMALL + r")"
    r"(?:\s+(?P<noun>[a-z-]+))?"
    r"|(?<![-\w])degrees?\s+of\s+(?:each|every|any|all)\s+(?:[a-z-]+\s+){1,2}?"
    r"(?:does not|doesn't|do not|don't|will not|won't)\s+exceed\s+(?P<k2>" + _SMALL + r")\b"
    r"|(?<![-\w])degrees?\s+of\s+(?:each|every|any|all)\s+(?:[a-z-]+\s+){1,2}?"
    r"(?:is|are)\s+(?:at most|no more than|not more than|not greater than)\s+"
    r"(?P<k3>" + _SMALL + r")\b", re.IGNORECASE)
#: What "each s has at most 5 characters" counts: no edges.
_NOT_EDGES = frozenset(
    "character characters letter letters digit digits symbol symbols line lines word words "
    "integer integers number numbers element elements item items query queries test tests "
    "time times cell cells unit units second seconds".split())


def degree_bound(sentence: str) -> int | None:
    """The most edges a sentence lets end at one vertex ("each student has no more than
    two archenemies": 2), if it says so."""
    match = _DEGREE.search(sentence)
    if match is None or (match.group("noun") or "").lower() in _NOT_EDGES:
        return None
    said = (match.group("k") or match.group("k2") or match.group("k3")).lower()
    return _COUNT_WORDS.get(said) or (1 if said == "one" else int(said))


def _guarantees(sentence: str, line: LineSpec | None) -> Iterator[Guarantee]:
    """The promises a sentence makes, clause by clause ("the road can't connect the
    junction with itself, but there can be more than one road between two": no loop,
    though the second clause allows what the first does not)."""
    for clause in re.split(r",\s+but\s+", sentence):
        yield from _clause_guarantees(clause, line)


def _clause_guarantees(sentence: str, line: LineSpec | None) -> Iterator[Guarantee]:
    """The promises one clause makes."""
    low = sentence.lower()
    subject = line.names if line else ()
    if re.search(r"\bnot guaranteed\b|\bmay contain\b|\bcan be\b|\bthere can\b|"
                 r"\bcan contain\b|\bpossible that\b", low):
        yield from ()
    else:
        if re.search(r"\b(?:is|forms?|define|defines|describes?|specif(?:y|ies)|form) (?:a |the )?"
                     r"(?:rooted )?tree\b|tree structure|edges form a tree|these edges form a "
                     r"tree|graph is a tree", low):
            yield Guarantee(TREE)
        if re.search(r"\bis connected\b|reach any|reachable from any|from any (?:city|town|"
                     r"vertex|node) you can|path between (?:any|each)|from every other|"
                     r"possible to get to|from any town to any other|connected, so", low):
            yield Guarantee(CONNECTED)
        if re.search(r"no multiple edges|at most one (?:edge|road|railway|stargate|direct link)|"
                     r"no more than one (?:direct link|road|edge)|(?:appear|listed)s? at most "
                     r"once|appear more than once|no edge appears twice|"
                     r"(?:is|are) no (?:loops or )?multiple|connect the same pair|"
                     r"no pair of \w+ directly connected by two", low):
            yield Guarantee(NO_MULTI_EDGES)
        if re.search(r"no (?:self-loops|loops)|no edge connects a (?:node|vertex) (?:with|to) "
                     r"itself|can't connect the junction with itself", low):
            yield Guarantee(NO_SELF_LOOPS)
    distinct = re.search(r"\b(?:pairwise )?(?:distinct|different)\b", low)
    if distinct and "not necessarily distinct" not in low and not re.search(
            r"can coincide|may be equal", low):
        named = re.search(r"all (?:values )?(" + _NAME + r") are (?:pairwise )?(?:distinct|"
                          r"different)", sentence)
        if named:
            yield Guarantee(DISTINCT, (base_name(named.group(1)),))
        elif line and line.list_length is not None and line.names:
            yield Guarantee(DISTINCT, line.names)
        elif re.search(r"points|locations", low):
            yield Guarantee(DISTINCT)
    if re.search(r"\bpermutation\b", low) and line and line.list_length is not None \
            and line.names:
        yield Guarantee(PERMUTATION, line.names)
    sort = re.search(r"sorted in ascending order|strictly increasing (" + _NAME + r")", sentence)
    if sort:
        yield Guarantee(SORTED, (base_name(sort.group(1)),) if sort.group(1) else subject)
    if re.search(r"(?:answer|solution) (?:always )?exists|exists at least one", low):
        yield Guarantee(ANSWER_EXISTS)
    degree = degree_bound(sentence)
    if degree is not None:
        yield Guarantee(MAX_DEGREE, (), degree)


#: "1 <= a_1 + a_2 + ... + a_n <= 300000": a bound on the sum of a list's items.
_ITEM_SUM = re.compile(
    r"(?:(?P<low>\d[\d^*]*(?:\(\d+\))?)\s*(?P<lop><=|<)\s*)?(?P<first>[A-Za-z])_?\{?1\}?\s*\+\s*"
    r"(?:(?P=first)_?\{?2\}?\s*\+\s*)?(?:\.\.\.|…|\\[lc]?dots)\s*\+\s*(?P=first)_?\{?[a-z]\}?"
    r"\s*(?P<hop><=|<)\s*(?P<high>\d[\d^*]*(?:\(\d+\))?)")


def _item_sums(sentence: str, lost: bool) -> Iterator[Guarantee]:
    """``1 <= a_1 + a_2 + ... + a_n <= 300000``: the sum of ``a``'s items, both sides."""
    for match in _ITEM_SUM.finditer(sentence):
        high, _ = _expression(match.group("high"), lost)
        low, _ = _expression(match.group("low"), lost) if match.group("low") else (None, [])
        if high is None or high.name or (low is not None and low.name):
            continue
        top = high.const - (match.group("hop") == "<")
        least = None if low is None else low.const + (match.group("lop") == "<")
        yield Guarantee(ITEM_SUM, (match.group("first"),), _as_number(top),
                        None if least is None else _as_number(least))


def _sums(sentence: str, lost: bool) -> Iterator[Guarantee]:
    """``the sum of n over all test cases does not exceed 2*10^5`` and alike."""
    pattern = (r"\b(?:sums?|total length) of (?:the values of |all |the |all the )?"
               r"(?P<names>" + _NAME + r"(?:\s+(?:and|,)\s+" + _NAME + r")*)?.*?"
               r"(?:do(?:es)?n't exceed|do(?:es)? not exceed|will not exceed|is at most|"
               r"are at most|at most|<=|not exceeding|no more than)\s*(?P<limit>[-\d*^() ]+)")
    for match in re.finditer(pattern, sentence, re.IGNORECASE):
        form, _ = _expression(match.group("limit").strip(), lost)
        if form is None or form.name:
            continue
        names = tuple(base_name(n) for n in re.split(r"\s*(?:and|,)\s*",
                                                       match.group("names") or "")
                      if n and _is_name(n))
        yield Guarantee(SUM, names, _as_number(form.const))


def _prose_bounds(sentence: str, line: LineSpec | None, last: LineSpec | None,
                  lost: bool) -> Iterator[Bound]:
    """Bounds said in words: positive, non-negative, either 0 or 1, in range 1 to n,
    length at most 50, do not exceed 10^4 in absolute value."""
    subject = line.names if line else ()
    low = sentence.lower()
    phrase = re.split(r"\(|\s[\u2014\u2013-]\s|\u2014|;", sentence)[0].lower()
    for word, value in (("positive", 1), ("natural", 1), ("non-negative", 0),
                        ("nonnegative", 0)):
        if re.search(rf"\b{word} (?:integers?|integer numbers?|numbers?)\b", phrase) and \
                line is not None and line.kind == "int":
            for name in subject:
                yield Bound(name, value, None)
    either = re.search(r"(" + _NAME + r")\s+(?:is|are)\s+either\s+(?:equal to\s+)?(-?\d+)\s+or\s+"
                       r"(-?\d+)\b(?!\s*\.\d)", sentence)
    if either:
        pair = sorted((int(either.group(2)), int(either.group(3))))
        yield Bound(base_name(either.group(1)), pair[0], pair[1])
    ranged = re.search(r"each in range (-?\w+) to (-?\w+),? inclusive", sentence)
    if ranged and subject:
        low_end, _ = _expression(ranged.group(1), lost)
        high_end, _ = _expression(ranged.group(2), lost)
        if low_end is not None and high_end is not None:
            for name in subject:
                yield Bound(name, None if low_end.name else _as_number(low_end.const),
                            None if high_end.name else _as_number(high_end.const),
                            _ref(low_end, 0) if low_end.name else None,
                            _ref(high_end, 0) if high_end.name else None)
    length = re.search(r"(?:length|lengths) (?:(?:is |are )?at most|does not exceed|doesn't "
                       r"exceed|not exceeding|can vary from 1 to|from 1 to|of at most)\s*"
                       r"(\d+(?:\*10\^\d+|\^\d+)?)", low)
    if length:
        form, _ = _expression(length.group(1), lost)
        named = _STRING_NAME.search(sentence)
        # "Its length is at most 50": the string the last line described.
        subject = subject or (last.names if last is not None and last.kind == "string" else ())
        target = base_name(named.group(1)) if named and _is_name(named.group(1)) else (
            subject[0] if len(subject) == 1 else "")
        if form is not None and not form.name:
            yield Bound(target, 1 if re.search(r"non-empty|nonempty|not empty|from 1", low) else 0,
                        _as_number(form.const), length=True)
    absolute = re.search(r"(?:do not|don't|does not|doesn't) exceed (\d+(?:\*10\^\(?\d+\)?)?) "
                         r"(?:in|by) absolute value", low)
    if absolute:
        form, _ = _expression(absolute.group(1), lost)
        if form is not None and not form.name:
            limit = _as_number(form.const)
            yield Bound("*", -limit, limit)


def stated_input(prompt: str) -> Stated:
    """What the statement's Input section says about its input (an empty
    :class:`Stated` where it has no such section)."""
    section = input_section(prompt)
    if not section:
        return Stated()
    lost = powers_lost(section)
    text = _clean(section)
    strings = {base_name(m.group(1)) for m in _STRING_NAME.finditer(text)}
    strings |= {base_name(m.group(1)) for m in re.finditer(r"\|(" + _NAME + r")\|\s*=", text)}
    bounds: list[Bound] = []
    lines: list[LineSpec] = []
    alphabets: dict[str, str] = {}
    guarantees: set[Guarantee] = set()
    test_count: str | None = None
    subtasks = in_test = False
    for sentence in _sentences(text):
        if re.search(r"limitations for getting|for getting \d+ points", sentence):
            subtasks = True  # bounds per subtask: which one the tests follow is unknown
            continue
        found: list[Bound] = []
        chain_names: list[str] = []
        for terms, ops in _chains(sentence):
            if ops == ["="] and not any(t.kind == "abs" for t in terms[0]):
                continue  # an assignment in prose, not a bound
            for bound in _chain_bounds(terms, ops, lost, strings):
                found.append(bound)
                if bound.name not in chain_names and not bound.length:
                    chain_names.append(bound.name)
        if re.search(r"\bor\s+(?:" + _NAME + r")\s*=", sentence):
            # "1 <= p_i <= n or p_i = -1": a union the bounds cannot say.
            ors = {b.name for b in found}
            found = [b for b in found if b.name not in ors]
        if subtasks:
            found = []
        line = _line_spec(sentence, lost, chain_names)
        if line is not None and not line.names and (line.repeat == SOME or (
                line.repeat is not None and line.repeat.scale != 1
                and re.search(r"\btest cases?\b", sentence, re.IGNORECASE))):
            # "the next lines contain descriptions of the test cases", "next 2T lines
            # contain test cases — two per test case": no line of its own ("next T lines
            # contain test cases — one per line" is one, named by the sentence after)
            line = None
        indexed = {bound.name for bound in found if bound.indexed and not bound.length}
        if (line is not None and line.list_length is not None and not line.names
                and len(indexed) == 1):
            # "n integers denoting the array a (0 ≤ a_i ≤ 10^9)": the list its one
            # indexed bound names
            line = replace(line, names=tuple(indexed))
        # "Next m lines describe enmity. Each enmity is described as two numbers a_i and
        # b_i": the lines' names in the sentence after
        continued = re.match(r"^(?:the i-th (?:of them|line|one)|each (?:line|of them|of these)"
                             r"|the i-th of these lines|each of [a-z]+ descriptions?)"
                             r"(?:\s*\([^()]*\))?\s+(?:contains?|has|describes?)\b"
                             r"|^(?:each|every|the i-th) [a-z]+ is (?:described|given|denoted|"
                             r"characterized|represented|specified) (?:as|by)\b"
                             r"|^[a-z]+ i is (?:described|given|denoted) (?:as|by)\b",
                             sentence, re.IGNORECASE)
        if line is None and continued and lines and lines[-1].repeat is not None \
                and not lines[-1].names:
            spec = _line_spec("The next line " + sentence[continued.end():].lstrip()
                              .join(("contains ", "")), lost, chain_names)
            if spec is not None:
                lines[-1] = replace(lines[-1], names=spec.names, kind=spec.kind,
                                    list_length=spec.list_length)
        if line is not None:
            # "the first line contains t, the number of test cases. The first line
            # contains n": a first line after the test count is a test case's own
            in_test = in_test or line.per_test or (
                test_count is not None and line.ordinal == 1 and bool(line.names))
            if in_test and not line.per_test and (line.ordinal != 1 or test_count is not None):
                line = replace(line, per_test=True)
            lines.append(line)
            if test_count is None and not line.per_test and len(lines) == 1 and re.search(
                    r"number of (?:test(?:\s*cases)?|queries|testcases|pairs|sets of input)"
                    r"|test cases\b", sentence, re.IGNORECASE) and len(line.names) == 1:
                test_count = line.names[0]
        where = len(lines) - 1 if lines else None
        found.extend(_prose_bounds(sentence, line, lines[-1] if lines else None, lost))
        bounds.extend(replace(b, line=where) for b in found)
        for match in re.finditer(r"(" + _NAME + r")\s*!=\s*(" + _NAME + r")", sentence):
            if _is_name(match.group(1)) and _is_name(match.group(2)):
                pair = (base_name(match.group(1)), base_name(match.group(2)))
                guarantees.add(Guarantee(NOT_EQUAL, pair))
        guarantees.update(_guarantees(sentence, line if line is not None else (
            lines[-1] if lines else None)))
        guarantees.update(_sums(sentence, lost))
        guarantees.update(_item_sums(sentence, lost))
        alphabet = _alphabet(sentence)
        if alphabet is not None:
            named = [base_name(m.group(1)) for m in _STRING_NAME.finditer(sentence)
                     if _is_name(m.group(1))]
            if line is not None and line.kind == "string" and line.names:
                named = list(line.names)
            if re.search(r"\b(?:both|all|these|the) (?:strings|lines)|all of them", sentence,
                         re.IGNORECASE):
                named = []
            for name in named or [""]:
                alphabets[name] = "".join(sorted(set(alphabets.get(name, "")) | set(alphabet)))
    free = bool(re.search(r"\b(?:do not|don't) have any other (?:conditions|constraints|"
                          r"restrictions)|\bno (?:other|further|additional) (?:conditions|"
                          r"constraints|restrictions)\b", text, re.IGNORECASE))
    return Stated(tuple(bounds), tuple(lines), tuple(sorted(alphabets.items())),
                  frozenset(guarantees), test_count, free)
