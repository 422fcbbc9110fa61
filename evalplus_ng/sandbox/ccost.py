"""What C-level work costs, in line units: a deterministic price for the work one
bytecode can hide.

Counting lines (:mod:`evalplus_ng.sandbox.linecount`) prices Python-level work, but one line can
run a loop in C: ``sum(range(n))``, ``a ** b`` on big integers, ``lst.remove(x)`` on a long
list, ``list(combinations(xs, r))``. Timing such a call decides nothing the same way twice
(an input near the limit is kept on one run and dropped on the next), so instead each
such operation is priced from its operands, before it runs, in *units* that cost about
what a line does (a line of CPython 3.11 takes 20-100 ns; a unit here takes between ~3
and ~500 ns on today's machines, whatever the operands):

* an item scanned or compared by C code (``sum``, ``min``, ``sorted``, ``list.count``,
  ``x in lst`` up to where it is found, ``set(xs)``, ``"".join(xs)``): 1;
* an item moved or copied (``list.remove``/``insert`` and ``pop(i)``: 1/16; slices and
  ``[0] * n``: 1/4 of a list item; characters and bytes: 1/16);
* big integers, by 64-bit words: ``+`` and ``<<`` cost the result's words; ``*``
  ``max(w1, w2) * min(w1, w2) ** 0.585`` (Karatsuba) (``-``, ``//`` and ``%`` are not
  priced: they shrink what the others made);
  ``a ** b`` (and ``math.factorial``, ``math.comb``) the result's words ``** 1.585``,
  known from the operands before the power is computed: ``3 ** 10**18`` is over any
  budget at once instead of running out of memory;
* ``itertools.combinations``, ``permutations``, ``product``,
  ``combinations_with_replacement``: the tuples they will make, times their length.

Pure functions of values; an operation not listed costs 0 (lines still count).
"""

from __future__ import annotations

import builtins
import collections
import itertools
import math
import operator
from collections.abc import Callable
from types import BuiltinFunctionType, BuiltinMethodType
from typing import Any

#: Above any budget: what an operation whose price does not fit a float costs.
HUGE = 1 << 62

_SCANNED = (list, tuple, str, bytes, bytearray, dict, set, frozenset, range)
_CHARS = (str, bytes, bytearray)


def _clamp(value: float) -> int:
    return HUGE if not value < HUGE else int(value)


def _power(base: int, exponent: float) -> int:
    """``base ** exponent`` as a price: HUGE when it does not fit a float."""
    if base > HUGE:
        return HUGE
    try:
        return _clamp(float(base) ** exponent)
    except OverflowError:
        return HUGE


def _range_length(value: range) -> int:
    """A range's length, also where ``len`` overflows (``range(2**63)``)."""
    try:
        return len(value)
    except OverflowError:
        return HUGE


def items(value: Any) -> int:
    """Items C code walks in ``value``: its length for a built-in sized type (characters
    at 1/16), else 0 (a lazy iterator's items are priced where they are made)."""
    kind = type(value)
    if kind in _CHARS:
        return len(value) >> 4
    if kind is range:
        return _range_length(value)
    if kind in _SCANNED:
        return len(value)
    return 0


def words(value: int) -> int:
    """64-bit words of an integer."""
    return (value.bit_length() + 63) >> 6


def _big(value: Any) -> bool:
    return type(value) is int and not -(1 << 64) < value < (1 << 64)


def power_cost(base: Any, exponent: Any) -> int:
    """``base ** exponent`` on integers: the result's words ** 1.585 (0 for ``0``,
    ``1``, ``-1`` and negative or non-integer exponents)."""
    if type(base) not in (int, bool) or type(exponent) not in (int, bool):
        return 0
    if exponent < 2 or -1 <= base <= 1:
        return 0
    result_words = (exponent * abs(base).bit_length()) >> 6
    if result_words <= 1:
        return 0
    price = _power(result_words, 1.585)
    return HUGE if price >= HUGE else price >> 1


def added_cost(value: Any) -> int:
    """Price of a ``+`` by its result (linear in its operands, so priced after it runs): a
    big integer's words, a new list's or tuple's items / 4 (a string's ``s + c`` is not
    priced: CPython extends it in place where the plain code runs)."""
    kind = type(value)
    if kind is int:
        return words(value) if _big(value) else 0
    if kind is list or kind is tuple:
        return len(value) >> 2
    return 0


def binop_cost(op: str, left: Any, right: Any) -> int:
    """Price of ``left <op> right``, before it runs, for ``*``, ``**`` and ``<<`` (the
    operators whose result can be far larger than their operands)."""
    if op == "**":
        return power_cost(left, right)
    if op == "<<":
        if type(left) is int and type(right) is int and right > 64 and left:
            return min(HUGE, words(left) + (right >> 6))
        return 0
    if op == "*":
        if type(left) is int and type(right) is int:
            if _big(left) or _big(right):
                wide, narrow = sorted((words(left), words(right)), reverse=True)
                return min(HUGE, wide * _power(max(1, narrow), 0.585))
            return 0
        sequence, count = (left, right) if type(right) in (int, bool) else (right, left)
        if type(count) in (int, bool) and type(sequence) in (list, tuple, *_CHARS):
            made: int = len(sequence) * max(0, count)
            return min(HUGE, made >> 4 if type(sequence) in _CHARS else made >> 2)
        return 0
    raise ValueError(f"no price for operator {op!r}")


def contains_cost(item: Any, container: Any) -> int:
    """``item in container``: the items compared before ``item`` is found (all when it is
    absent) in a list or tuple; characters / 16 in a string; 0 elsewhere (hashed)."""
    kind = type(container)
    if kind in _CHARS:
        return len(container) >> 4
    if kind not in (list, tuple):
        return 0
    try:
        return int(container.index(item)) + 1
    except (ValueError, TypeError):
        return len(container)


def slice_cost(value: Any, index: Any) -> int:
    """``value[index]`` where ``index`` is a slice: the items copied."""
    kind = type(value)
    if type(index) is not slice or kind not in (list, tuple, *_CHARS):
        return 0
    start, stop, step = index.indices(len(value))
    made = len(range(start, stop, step))
    return made >> 4 if kind in _CHARS else made >> 2


def _scan(args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    total = 0
    for arg in args:
        if type(arg) in _SCANNED:
            total += items(arg)
    return total


def _count_tuples(count: float, width: int) -> int:
    return _clamp(count * max(1, width))


def _log_comb(n: int, k: int) -> float:
    if k < 0 or k > n:
        return -math.inf
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def _exp(log_value: float) -> float:
    return 0.0 if log_value == -math.inf else math.exp(min(log_value, 200.0))


def _combinations(args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    pool, r = (*args, None, None)[:2]
    r = kwargs.get("r", r)
    if type(r) is not int or type(pool) not in _SCANNED:
        return 0
    return _count_tuples(_exp(_log_comb(len(pool), r)), r)


def _with_replacement(args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    pool, r = (*args, None, None)[:2]
    r = kwargs.get("r", r)
    if type(r) is not int or type(pool) not in _SCANNED or r < 0:
        return 0
    n = len(pool)
    if n == 0:
        return 0
    if r > 1 << 40:
        return HUGE
    return _count_tuples(_exp(_log_comb(n + r - 1, r)), r)


def _permutations(args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    pool, r = (*args, None, None)[:2]
    r = kwargs.get("r", r)
    if type(pool) not in _SCANNED:
        return 0
    n = len(pool)
    r = n if r is None else r
    if type(r) is not int or r < 0 or r > n:
        return 0
    return _count_tuples(_exp(math.lgamma(n + 1) - math.lgamma(n - r + 1)), r)


def _product_of(args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    repeat = kwargs.get("repeat", 1)
    if type(repeat) is not int or repeat < 0 or not args:
        return 0
    repeat = min(repeat, 1 << 40)
    if any(type(arg) not in _SCANNED for arg in args):
        return 0
    logs = [math.log(len(arg)) if len(arg) else -math.inf for arg in args]
    return _count_tuples(_exp(sum(logs) * repeat), len(args) * repeat)


def _factorial(args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    n = args[0] if args else None
    if type(n) is not int or n < 2:
        return 0
    if n > 1 << 40:
        return HUGE
    result_words = math.lgamma(n + 1) / math.log(2) / 64
    return _clamp(result_words ** 1.585) if result_words > 1 else 0


def _comb(args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    if len(args) != 2 or type(args[0]) is not int or type(args[1]) is not int:
        return 0
    n, k = args
    if k < 0 or n < 0 or k > n:
        return 0
    if n > 1 << 40:
        return HUGE
    result_words = _log_comb(n, k) / math.log(2) / 64
    return _clamp(max(1.0, result_words) ** 1.585 * max(1, min(k, n - k).bit_length()))


def _perm(args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    if not args or type(args[0]) is not int:
        return 0
    n = args[0]
    k = args[1] if len(args) > 1 else n
    if type(k) is not int or k < 0 or n < 0 or k > n:
        return 0
    if n > 1 << 40:
        return HUGE
    result_words = (math.lgamma(n + 1) - math.lgamma(n - k + 1)) / math.log(2) / 64
    return _clamp(max(1.0, result_words) ** 1.585 * max(1, k.bit_length()))


def _pow(args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    if len(args) == 2:
        return power_cost(*args)
    if len(args) == 3 and all(type(arg) is int for arg in args) and args[2]:
        return min(HUGE, args[1].bit_length() * _power(words(args[2]), 1.585)) if args[1] > 0 else 0
    return 0


def _sum(args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    return items(args[0]) if args else 0


#: Built-in functions and classes whose call walks its arguments' items.
_CALLS: dict[Any, Callable[[tuple[Any, ...], dict[str, Any]], int]] = {
    function: _scan for function in (
        builtins.min, builtins.max, builtins.sorted, builtins.list, builtins.tuple,
        builtins.set, builtins.frozenset, builtins.dict, builtins.any, builtins.all,
        collections.Counter, collections.deque, builtins.bytes, builtins.bytearray,
    )
}
_CALLS.update({
    builtins.sum: _sum,
    builtins.pow: _pow,
    operator.pow: _pow,
    math.factorial: _factorial,
    math.comb: _comb,
    math.perm: _perm,
    itertools.combinations: _combinations,
    itertools.combinations_with_replacement: _with_replacement,
    itertools.permutations: _permutations,
    itertools.product: _product_of,
})

#: Names of the functions above as code calls them (what the rewrite wraps).
CALL_NAMES = frozenset({
    "min", "max", "sorted", "list", "tuple", "set", "frozenset", "dict", "any", "all",
    "Counter", "deque", "bytes", "bytearray", "sum", "pow", "factorial", "comb", "perm",
    "combinations", "combinations_with_replacement", "permutations", "product",
})


def _whole(receiver: Any, args: tuple[Any, ...]) -> int:
    return len(receiver)


def _moved(receiver: Any, args: tuple[Any, ...]) -> int:
    return len(receiver) >> 4


def _copied(receiver: Any, args: tuple[Any, ...]) -> int:
    return len(receiver) >> 2


def _popped(receiver: Any, args: tuple[Any, ...]) -> int:
    return len(receiver) >> 4 if args else 0


def _found(receiver: Any, args: tuple[Any, ...]) -> int:
    return contains_cost(args[0], receiver) if args else 0


def _removed(receiver: Any, args: tuple[Any, ...]) -> int:
    """Items compared up to the one removed, and the rest moved down a place."""
    scanned = _found(receiver, args)
    return scanned + ((len(receiver) - scanned) >> 4)


def _added(receiver: Any, args: tuple[Any, ...]) -> int:
    return sum(items(arg) for arg in args) >> 2


def _joined(receiver: Any, args: tuple[Any, ...]) -> int:
    return items(args[0]) if args and type(args[0]) is not str else len(receiver) >> 4


def _chars(receiver: Any, args: tuple[Any, ...]) -> int:
    return (len(receiver) + sum(len(a) for a in args if type(a) in _CHARS)) >> 4


MethodCost = Callable[[Any, tuple[Any, ...]], int]
_SEQUENCE_METHODS: dict[str, MethodCost] = {
    "count": _whole, "index": _found, "remove": _removed, "insert": _moved, "pop": _popped,
    "sort": _whole, "reverse": _copied, "copy": _copied, "extend": _added,
}
_STRING_METHODS: dict[str, MethodCost] = {
    name: _chars for name in (
        "count", "find", "rfind", "index", "rindex", "replace", "split", "rsplit",
        "splitlines", "strip", "lstrip", "rstrip", "lower", "upper", "title", "capitalize",
        "swapcase", "casefold", "translate", "encode", "decode", "partition", "rpartition",
        "expandtabs", "zfill", "center", "ljust", "rjust", "isdigit", "isalpha", "isalnum",
        "isspace", "islower", "isupper", "isnumeric", "isdecimal",
    )
}
_STRING_METHODS["join"] = _joined
_SET_METHODS: dict[str, MethodCost] = {
    name: lambda receiver, args: sum(items(arg) for arg in args) for name in (
        "update", "union", "intersection", "difference", "symmetric_difference",
        "intersection_update", "difference_update", "issubset", "issuperset", "isdisjoint")
}
_SET_METHODS["copy"] = _copied
_METHODS: dict[type, dict[str, MethodCost]] = {
    list: _SEQUENCE_METHODS,
    tuple: {"count": _whole, "index": _found},
    str: _STRING_METHODS, bytes: _STRING_METHODS, bytearray: _STRING_METHODS,
    set: _SET_METHODS, frozenset: _SET_METHODS,
    dict: {"copy": _copied, "update": _added},
}

#: Method names the rewrite wraps (it cannot know the receiver's type).
METHOD_NAMES = frozenset(
    name for table in _METHODS.values() for name in table
) | frozenset({"factorial", "comb", "perm", "combinations", "combinations_with_replacement",
               "permutations", "product", "pow", "Counter", "deque"})


def call_cost(function: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    """Price of ``function(*args, **kwargs)`` when ``function`` is a priced built-in
    (compared by identity: a user's own ``sum`` or ``count`` costs 0 here)."""
    kind = type(function)
    if kind is BuiltinMethodType or kind is BuiltinFunctionType:
        receiver = getattr(function, "__self__", None)
        table = _METHODS.get(type(receiver))
        if table is not None:
            price = table.get(function.__name__)
            return int(price(receiver, args)) if price is not None else 0
    try:
        price_call = _CALLS.get(function)
    except TypeError:  # unhashable
        return 0
    return price_call(args, kwargs) if price_call is not None else 0
