"""One exception hierarchy; only the CLI turns these into exit codes and messages."""

from __future__ import annotations


class EvalplusError(Exception):
    """Base of every error the engine raises on purpose."""


class InputError(EvalplusError):
    """A user-supplied file is malformed; names the file, the line and the problem."""

    def __init__(self, path: str, line: int | None, problem: str) -> None:
        self.path = path
        self.line = line
        self.problem = problem
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {problem}")

    def __reduce__(self) -> tuple[type[InputError], tuple[str, int | None, str]]:
        # Raised in a worker process, it is pickled back to the parent: rebuilt from its
        # three fields (the default would call __init__ with the message alone, fail, and
        # leave the pool waiting forever).
        return (InputError, (self.path, self.line, self.problem))


class UnknownTaskError(EvalplusError):
    """A task id that the dataset does not have."""


class SandboxError(EvalplusError):
    """The sandbox itself (not the code it runs) failed."""


class EndpointError(EvalplusError):
    """A model endpoint cannot serve any request: bad key, unknown model, unreachable."""
