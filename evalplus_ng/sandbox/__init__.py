"""The one place where untrusted code runs: processes, rlimits, privileges, time limits.

Layout. The trusted parent (:mod:`.pool`: :class:`Sandbox`) keeps a pool of
long-lived *supervisor* processes (:mod:`.supervisor`; one per worker, started
once and recycled across jobs), each in a jail (:mod:`.jail`: bubblewrap's, or the
same one it makes itself with namespaces; :mod:`.rootfs` decides what either shows)
and a memory cgroup (:mod:`.cgroup`, where one can be
made). Before it reads any job, a supervisor forks a *zygote* (:mod:`.zygote`) that
loads a seccomp filter; for each job (one piece of code and its inputs) the zygote
forks a fresh *child* (:mod:`.child`) that loads the code and calls it on each
input, so that no child's memory ever held another job. Each child is forked alone, as
pid 1 of a pid namespace of its own, from a zygote that shows it no /proc (a program's
child mounts a /proc of its own, in a mount namespace of its own): it sees no other
process, so no counter the zygote or supervisor accumulates from earlier children.
Each child confines itself
(:func:`.jail.confine`) before its job is known (the next job's child is made while
the parent reads the last job's end), then receives the job on a pipe of its own.
The child:

* gets a working folder no child had before (a tmpfs of its own where the
  supervisor may mount one, times 0, unpredictable name) and loses stdin, stdout
  and stderr: nothing one child leaves reaches the next (docs/explanation/sandbox.md);
* has a memory cap (``RLIMIT_AS``), a file-size cap and may not create a single
  process or thread (``RLIMIT_NPROC``);
* keeps no capability, and when the supervisor runs as root, switches to a uid of
  its own (``UID_BASE`` + a random ticket), so that it cannot write, delete or signal anything
  it does not own;
* inherits the zygote's seccomp filter (no ptrace, mounts, memfd, SysV IPC,
  signals, sockets of any family; its death signal cannot be cleared);
* sees only what its jail shows (docs/explanation/sandbox.md has the modes).

The supervisor enforces every time limit with ``SIGKILL`` (a sample that
ignores signals or spins in C cannot escape it) and relays each outcome to the
parent, which alone holds the expected outputs and judges them with the
:class:`~evalplus_ng.protocols.Judge` the sandbox was given (the real one is
:data:`evalplus_ng.judge.JUDGE`; this package imports no oracle); neither the
supervisor nor the child ever sees an expected output, and the parent answers
``stop`` to end a failing job early. A child that dies, hangs or floods becomes
an :class:`~evalplus_ng.records.Outcome`, never an exception; a supervisor that
dies is restarted and the job retried once.

Frames on every pipe (:mod:`.protocol`) are a 4-byte big-endian length followed
by a body. The parent sends the supervisor pickles (trusted data only ever flows
that way: the parent never unpickles). The child sends one *outcome body* per
input as soon as the call returns: a status byte, the seconds as a big-endian
double, then the output's JSON text (a program's stdout as it is; or the error
text). The supervisor only splits the child's stream at frame boundaries (to apply
time and size limits) and relays whole runs of frames unparsed; the parent reads them
as they stream, each output within its allowance, and parses and judges them
(:mod:`.replies`, :mod:`.allowance`).

The parent's own work on untrusted text (sanitizing samples) runs apart, in
:mod:`.bounded`: trusted code in a worker process with CPU-time and memory limits.

Imports run one way: ``protocol`` <- ``rootfs`` <- ``environ`` <- ``jail`` <- ``child`` <-
``supervisor`` <- ``pool``; ``allowance`` <- ``replies`` <- ``pool``; ``environ`` <-
``bounded``; ``zygote`` and ``cgroup`` stand alone. Jobs and their results are records
(:mod:`evalplus_ng.records`).
"""

from __future__ import annotations

from evalplus_ng.sandbox import cgroup
from evalplus_ng.sandbox.jail import UID_BASE
from evalplus_ng.sandbox.pool import MAP_WINDOW, Sandbox
from evalplus_ng.sandbox.protocol import Limits

__all__ = ["MAP_WINDOW", "UID_BASE", "Limits", "Sandbox", "cgroup"]
