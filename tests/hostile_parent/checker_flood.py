"""Attacks the parent through a program task with a checker ("print any valid answer"):
on every test the program writes 8 MiB of bytes that are not UTF-8 (the most stdout may
hold), never raising, never timing out.

The parent kept every output of a checker task's round until the checker read them (no
stop at the first wrong one), each invalid byte spelled six-fold on the wire and again
for the checker: 63-111 s and 2.6 GB of the parent for one sample on 12 tests. Expected:
a wrong answer on the first test, the rest unrun.
"""

#: The task, as a line of a tasks file: "print a proper divisor of n, or -1", 12 tests,
#: judged by its own checker.
CHECKER = """\
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
SMALLEST = ("n = int(input())\n"
            "print(next((d for d in range(2, int(n ** 0.5) + 1) if n % d == 0), -1))\n")
_NUMBERS = (12, 9, 7, 10, 35, 49, 97, 100, 121, 143, 221, 323)


def _smallest(n: int) -> int:
    return next((d for d in range(2, int(n ** 0.5) + 1) if n % d == 0), -1)


TASK = {
    "task_id": "cc/div", "prompt": "Print any divisor d of n with 1 < d < n, or -1.",
    "canonical_solution": SMALLEST, "checker": CHECKER,
    "tests": [{"input": f"{n}\n", "output": f"{_smallest(n)}\n", "public": k == 0}
              for k, n in enumerate(_NUMBERS)],
}
#: Another right answer: the largest proper divisor (the checker accepts it).
RIGHT = ("n = int(input())\n"
         "d = next((d for d in range(2, int(n ** 0.5) + 1) if n % d == 0), -1)\n"
         "print(-1 if d == -1 else n // d)\n")

SOLUTION = "import sys\nsys.stdout.buffer.write(b'\\xff' * (8 << 20))\n"


def record() -> dict[str, str]:
    return {"solution": SOLUTION}
