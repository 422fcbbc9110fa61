"""Points and circles drawn with the structure geometry bugs need and independent
coordinates almost never give: three or more points on one line, points sharing an ``x``
or a ``y`` (a grid, a cross), circles that touch.

Each shape is a list of distinct integer points (or circles) within a box, at most as many
as asked (fewer where the box holds too few); the caller draws the rest as it would
anyway. Pure and deterministic: the ``random.Random`` and the ``coordinate`` callable
(a number within ``[low, high]``, drawn however the caller draws numbers) in, points out.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

#: ``(x_low, x_high, y_low, y_high)``: where points may lie (both ends included).
Box = tuple[int, int, int, int]
Point = tuple[int, int]
Circle = tuple[int, int, int]
#: A number within ``[low, high]``.
Coordinate = Callable[[int, int], int]

#: Lines at most a drawing puts its points on.
LINES = 3
#: Largest component of a short direction of a line (``(2, -3)``: a slanted lattice line).
SHORT_STEP = 3
#: Integer directions whose length is an integer ``c`` (``a, b, c``: a Pythagorean triple
#: or an axis): circles touching along them have integer centres.
TRIPLES = ((1, 0, 1), (0, 1, 1), (3, 4, 5), (4, 3, 5), (5, 12, 13), (12, 5, 13))
#: Random points tried per point missing before a drawing gives up on the count.
FILL_TRIES = 4


def shaped_points(count: int, box: Box, rng: random.Random,
                  coordinate: Coordinate) -> list[Point]:
    """Up to ``count`` distinct points within ``box``, a third of the time each on one to
    :data:`LINES` lines (axis-parallel, short slanted steps, or through two random
    points), on a grid of a few ``x`` and ``y`` values, or on a cross; in a random
    order."""
    shape = rng.random()
    if shape < 1 / 3:
        points = on_lines(count, box, rng, coordinate)
    elif shape < 2 / 3:
        points = on_grid(count, box, rng, coordinate)
    else:
        points = on_cross(count, box, rng, coordinate)
    _fill(points, count, lambda: (coordinate(box[0], box[1]), coordinate(box[2], box[3])))
    rng.shuffle(points)
    return points[:count]


def on_lines(count: int, box: Box, rng: random.Random, coordinate: Coordinate) -> list[Point]:
    """Distinct points on one to :data:`LINES` lines through random points, at integer
    steps along each (consecutive steps or random ones); at most ``count``."""
    xlow, xhigh, ylow, yhigh = box
    lines = rng.randint(1, max(1, min(LINES, count // 3)))
    found: dict[Point, None] = {}  # an ordered set: the same seed, the same order
    for line in range(lines):
        share = count // lines + (1 if line < count % lines else 0)
        start = (coordinate(xlow, xhigh), coordinate(ylow, yhigh))
        step = _direction(start, box, rng, coordinate)
        first, last = _steps(start, step, box)
        if last - first + 1 <= share:
            chosen: range | list[int] = range(first, last + 1)
        elif rng.random() < 0.5:  # neighbours on the line: a run of lattice points
            begin = rng.randint(first, last - share + 1)
            chosen = range(begin, begin + share)
        else:
            chosen = rng.sample(range(first, last + 1), share)
        for t in chosen:
            found[start[0] + t * step[0], start[1] + t * step[1]] = None
    return list(found)[:count]


def on_grid(count: int, box: Box, rng: random.Random, coordinate: Coordinate) -> list[Point]:
    """Distinct points of a grid of a few ``x`` and ``y`` values (one column: points
    sharing an ``x``; evenly spaced values: each point's neighbours on all four sides);
    at most ``count``."""
    columns = rng.randint(1, math.isqrt(max(count, 1)) + 1)
    rows = -(-count // columns) + rng.randint(0, 1)
    xs = _values(columns, box[0], box[1], rng, coordinate)
    ys = _values(rows, box[2], box[3], rng, coordinate)
    grid = [(x, y) for x in xs for y in ys if box[0] <= x <= box[1] and box[2] <= y <= box[3]]
    rng.shuffle(grid)
    return grid[:count]


def on_cross(count: int, box: Box, rng: random.Random, coordinate: Coordinate) -> list[Point]:
    """Distinct points on the four arms of a cross (a vertical and a horizontal line
    through one point, that point itself half the time), at consecutive steps from the
    centre or random ones: a point with neighbours on all four sides, and points sharing
    its ``x`` or its ``y``; at most ``count``."""
    centre = (coordinate(box[0], box[1]), coordinate(box[2], box[3]))
    found: dict[Point, None] = {centre: None} if rng.random() < 0.5 else {}
    near = rng.random() < 0.5
    arms = ((1, 0), (-1, 0), (0, 1), (0, -1))
    for arm in range(count - len(found)):
        dx, dy = arms[arm % 4]
        _first, last = _steps(centre, (dx, dy), box)
        if last < 1:
            continue  # the centre on the box's edge: no arm this way
        t = min(last, arm // 4 + 1) if near else rng.randint(1, last)
        found[centre[0] + t * dx, centre[1] + t * dy] = None
    return list(found)[:count]


def touching_circles(count: int, box: Box, radii: tuple[int, int], rng: random.Random,
                     coordinate: Coordinate) -> list[Circle]:
    """Up to ``count`` distinct circles ``(x, y, r)`` with centres in ``box`` and radii
    within ``radii``, each after the first touching one drawn before it where it fits
    (outside it, or inside it, along a direction of integer length), else anywhere."""
    def anywhere() -> Circle:
        return (coordinate(box[0], box[1]), coordinate(box[2], box[3]),
                coordinate(radii[0], radii[1]))

    found: dict[Circle, None] = {anywhere(): None}
    for _ in range(count * FILL_TRIES):
        if len(found) >= count:
            break
        x, y, r = rng.choice(list(found))
        a, b, c = rng.choice(TRIPLES)
        a, b = a * rng.choice((1, -1)), b * rng.choice((1, -1))
        s = coordinate(radii[0], radii[1])  # the new radius, about
        if rng.random() < 0.7:  # outside: centres r + s apart, a multiple k of c
            k = -(-(r + s) // c)
            s = c * k - r
        else:  # inside: radii differing by the centres' distance, a multiple k of c
            k = max(1, abs(r - s) // c)
            s = r + c * k if s > r else r - c * k
        circle = (x + a * k, y + b * k, s)
        if box[0] <= circle[0] <= box[1] and box[2] <= circle[1] <= box[3] \
                and radii[0] <= s <= radii[1]:
            found[circle] = None
        else:
            found[anywhere()] = None
    return list(found)[:count]


def _direction(start: Point, box: Box, rng: random.Random, coordinate: Coordinate) -> Point:
    """A primitive integer direction: along an axis, a short slanted step, or towards
    another random point."""
    shape = rng.random()
    if shape < 0.3:
        dx, dy = rng.choice(((1, 0), (0, 1)))
    elif shape < 0.6:
        dx, dy = rng.randint(-SHORT_STEP, SHORT_STEP), rng.randint(-SHORT_STEP, SHORT_STEP)
    else:
        dx = coordinate(box[0], box[1]) - start[0]
        dy = coordinate(box[2], box[3]) - start[1]
    if dx == dy == 0:
        dx, dy = 1, 1
    g = math.gcd(dx, dy)
    return dx // g, dy // g


def _steps(start: Point, step: Point, box: Box) -> tuple[int, int]:
    """The first and last ``t`` with ``start + t * step`` within ``box`` (``start`` is)."""
    first, last = -(1 << 64), 1 << 64
    for origin, delta, low, high in ((start[0], step[0], box[0], box[1]),
                                     (start[1], step[1], box[2], box[3])):
        if delta > 0:
            first = max(first, -((origin - low) // delta))
            last = min(last, (high - origin) // delta)
        elif delta < 0:
            first = max(first, -((high - origin) // -delta))
            last = min(last, (origin - low) // -delta)
    return first, last


def _values(k: int, low: int, high: int, rng: random.Random,
            coordinate: Coordinate) -> list[int]:
    """``k`` distinct values within ``[low, high]`` (all of them where there are fewer):
    evenly spaced half the time, else random."""
    if high - low + 1 <= k:
        return list(range(low, high + 1))
    if rng.random() < 0.5:
        widest = (high - low) // max(k - 1, 1)  # k values this far apart still fit
        gap = min(widest, rng.choice((1, 1, 2, max(1, widest // 2))))
        begin = max(low, min(coordinate(low, high), high - gap * (k - 1)))
        return [begin + gap * j for j in range(k)]
    found: dict[int, None] = {}
    for _ in range(k * FILL_TRIES):
        if len(found) >= k:
            break
        found[coordinate(low, high)] = None
    return list(found)


def _fill(points: list[Point], count: int, draw: Callable[[], Point]) -> None:
    """``points`` topped up with distinct random ones towards ``count`` (a few tries each)."""
    seen = set(points)
    for _ in range((count - len(points)) * FILL_TRIES):
        if len(points) >= count:
            break
        point = draw()
        if point not in seen:
            seen.add(point)
            points.append(point)
