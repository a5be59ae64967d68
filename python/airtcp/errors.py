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
