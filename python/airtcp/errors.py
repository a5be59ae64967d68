"""Errors raised for user mistakes: they carry every problem found, never a traceback's worth."""

from __future__ import annotations

from dataclasses import dataclass


class UserError(Exception):
    """Base of the errors that describe a mistake in what was asked (a bad sweep, an unknown study,
    an unusable store...): the command line prints their message and exits with status 2."""


@dataclass(frozen=True)
class FieldError:
    """One problem in a scenario: the dotted field path, the value as written, and the message."""

    path: str
    value: str | None
    message: str

    def __str__(self) -> str:
        if not self.path:
            return self.message
        if self.value is not None:
            return f"{self.path} = {self.value}: {self.message}"
        return f"{self.path}: {self.message}"


class ScenarioError(ValueError):
    """A scenario is invalid. ``errors`` lists every problem; ``source`` names the file.

    >>> import airtcp
    >>> try:
    ...     airtcp.Scenario(duration="10 minutes").validate()
    ... except airtcp.ScenarioError as e:
    ...     print(e.errors[0])
    simulation.duration = "10 minutes": unknown time unit "minutes"; allowed units: ns, us, µs, ms, s (e.g. "20ms")
    """

    def __init__(self, source: str, errors: list[FieldError]):
        self.source = source
        self.errors = errors
        super().__init__("\n".join(f"{source}: {e}" for e in errors))

    def __reduce__(self):
        # picklable with its fields: raised in a pool worker, it must reach the parent intact
        return (type(self), (self.source, self.errors))


class ArgumentError(UserError, TypeError, ValueError):
    """An argument of an ``airtcp`` function has the wrong type or value; the message names the
    argument, what was given and what is allowed. It is a ``TypeError`` and a ``ValueError`` too,
    so code catching either keeps working."""


class SimulationError(Exception):
    """A valid scenario failed while running: a bug in the simulator, never a user mistake.

    ``scenario`` names the scenario (file or name), ``seed`` and ``replication`` say which run,
    ``detail`` is the simulator's own message. An ordinary ``Exception`` (``except Exception``
    catches it), unlike the ``BaseException`` a raw Rust panic would be."""

    def __init__(self, scenario: str, seed: int | None, replication: int, detail: str):
        self.scenario = scenario
        self.seed = seed
        self.replication = replication
        self.detail = detail
        shown = "the scenario's seed" if seed is None else f"seed {seed}"
        super().__init__(
            f"{scenario}: the simulator failed ({shown}, replication {replication}): {detail}; "
            "this is a bug in airtcp, please report it with the scenario"
        )

    def __reduce__(self):
        # picklable with its fields (a pool worker's error crosses to the parent)
        return (type(self), (self.scenario, self.seed, self.replication, self.detail))


class RunLimitError(UserError):
    """A run stopped at a resource limit (its projected wall time, or its memory): the message
    says what was measured and how to raise the limit (``max_wall_s=``, ``max_memory=``, or
    ``--max-wall``/``--max-memory`` on the command line)."""
