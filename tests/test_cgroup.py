"""The supervisors' memory cgroups (evalplus_ng.sandbox.cgroup)."""

from __future__ import annotations

import os
import subprocess

import pytest

from evalplus_ng.records import Job
from evalplus_ng.sandbox import Limits, Sandbox, cgroup
from evalplus_ng.sandbox.pool import cgroup_bytes
from evalplus_ng.serialize import encode

HYBRID_CGROUP = "4:memory:/box/run\n1:cpu:/\n0::/user.slice\n"
HYBRID_MOUNTS = (
    "30 25 0:26 / /sys/fs/cgroup/unified rw,relatime shared:5 - cgroup2 cgroup2 rw\n"
    "33 25 0:29 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory\n"
    "34 25 0:30 / /sys/fs/cgroup/cpu rw,relatime shared:10 - cgroup cgroup rw,cpu\n"
    "22 1 0:21 / /proc rw,relatime shared:2 - proc proc rw\n"
)


def test_locate_finds_v2_first_then_the_v1_memory_hierarchy() -> None:
    found = cgroup.locate(HYBRID_CGROUP, HYBRID_MOUNTS)
    assert found == [cgroup.Hierarchy(2, "/sys/fs/cgroup/unified/user.slice"),
                     cgroup.Hierarchy(1, "/sys/fs/cgroup/memory/box/run")]
    assert [h.limit_file for h in found] == ["memory.max", "memory.limit_in_bytes"]


def test_locate_strips_a_mount_root_and_unescapes_the_mount_point() -> None:
    mounts = "40 25 0:40 /box /sys/fs/my\\040groups rw - cgroup2 cgroup2 rw\n"
    assert cgroup.locate("0::/box/run/job\n", mounts) == [
        cgroup.Hierarchy(2, "/sys/fs/my groups/run/job")]


def test_locate_ignores_hierarchies_without_memory_and_malformed_lines() -> None:
    mounts = ("34 25 0:30 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n"
              "garbage\n"
              "35 25 0:31 / /x rw - cgroup2\n")
    assert cgroup.locate("1:cpu:/\nnot a line\n", mounts) == []
    # A v1 memory mount, but this process is in no memory cgroup.
    assert cgroup.locate("1:cpu:/\n", HYBRID_MOUNTS) == []


requires_cgroup = pytest.mark.skipif(cgroup.here() is None,
                                     reason="no memory cgroup can be made here")
LIMITS = Limits(memory_bytes=1 << 30, load_seconds=5.0)
WRITER = ("def f(megabytes):\n"
          "    for n in range(megabytes // 10):\n"
          "        with open(f'block{n}', 'wb') as handle:\n"
          "            handle.write(b'x' * (10 << 20))\n"
          "    return megabytes\n")


def _job(megabytes: int) -> Job:
    return Job(code=WRITER, entry_point="f", inputs=[encode([megabytes])], time_limits=[10.0])


@requires_cgroup
def test_each_supervisor_has_a_memory_cgroup_that_counts_files_the_cap_does_not(
        jail: str) -> None:
    # ``jail``: each mode in turn (tests/conftest.py).
    with Sandbox(1, LIMITS) as sandbox:
        assert sandbox.run(_job(0)).outcomes[0].value == 0
        group = sandbox._all[0].group
        assert group is not None
        assert group.limit() == cgroup_bytes(LIMITS)
        # The supervisor and its zygote (and the spare child, once made) are inside.
        assert len(group.pids()) >= 2
        before = group.peak()
        # 40 MiB in files of the working folder: outside the child's address space,
        # inside its cgroup.
        assert sandbox.run(_job(40)).outcomes[0].value == 40
        assert group.peak() >= before + (35 << 20)
    assert not os.path.exists(group.folder)


@requires_cgroup
def test_a_new_sandbox_removes_cgroups_of_a_killed_one() -> None:
    hierarchy = cgroup.here()
    assert hierarchy is not None
    dead = subprocess.Popen(["true"])
    dead.wait()
    folder = os.path.join(hierarchy.folder, f"evalplus-ng-{dead.pid}-0")
    os.mkdir(folder)
    mine = os.path.join(hierarchy.folder, f"evalplus-ng-{os.getpid()}-99")
    os.mkdir(mine)
    try:
        with Sandbox(1, LIMITS):
            pass
        assert not os.path.exists(folder)
        assert os.path.exists(mine), "a live sandbox's cgroup is not touched"
    finally:
        for path in (folder, mine):
            if os.path.exists(path):
                os.rmdir(path)
