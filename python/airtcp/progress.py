"""Progress bars with ETA for sweeps and long runs (rich), silent when the output is not a terminal.

One overall bar counts the runs still to compute (runs found in the store are not counted, so the
ETA reflects real work), with one line per sweep below it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class SweepProgress:
    """Progress of a batch of sweeps. ``enabled=None`` shows bars only on a terminal (stderr)."""

    def __init__(self, names: Sequence[str], todo: Sequence[int], cached: Sequence[int], enabled: bool | None = None):
        console = Console(stderr=True)
        self.enabled = console.is_terminal if enabled is None else enabled
        self._progress: Progress | None = None
        self._rows: list[TaskID] = []
        self._total: TaskID | None = None
        if not self.enabled:
            return
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("elapsed"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
        )
        total = sum(todo)
        cached_total = sum(cached)
        label = f"[bold]all runs[/bold] ({cached_total} from store)" if cached_total else "[bold]all runs[/bold]"
        self._total = self._progress.add_task(label, total=total)
        if len(names) > 1:
            for name, n, c in zip(names, todo, cached, strict=True):
                desc = f"  {name}" + (f" ({c} from store)" if c else "")
                self._rows.append(self._progress.add_task(desc, total=n))

    def __enter__(self) -> SweepProgress:
        if self._progress is not None:
            self._progress.start()
        return self

    def advance(self, sweep_index: int) -> None:
        """One run of sweep ``sweep_index`` finished."""
        if self._progress is None:
            return
        assert self._total is not None
        self._progress.advance(self._total)
        if self._rows:
            self._progress.advance(self._rows[sweep_index])

    def __exit__(self, *exc) -> None:
        if self._progress is not None:
            self._progress.stop()


class RunProgress:
    """Progress of one run in simulated time, with ETA. Shown on a terminal (stderr) only, and
    only once the run has lasted ``delay_s`` of wall time, so short runs never flash a bar.
    Call the instance with the fraction done (what ``_core.run(progress=...)`` does)."""

    def __init__(self, label: str, enabled: bool | None = None, delay_s: float = 1.0):
        console = Console(stderr=True)
        self.enabled = console.is_terminal if enabled is None else enabled
        self._label = label
        self._console = console
        self._delay_s = delay_s
        self._started = time.perf_counter()
        self._progress: Progress | None = None
        self._task: TaskID | None = None

    def __call__(self, fraction: float) -> None:
        if not self.enabled:
            return
        if self._progress is None:
            if time.perf_counter() - self._started < self._delay_s:
                return
            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.percentage:>3.0f}% of simulated time"),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=self._console,
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task(self._label, total=1.0)
        assert self._task is not None
        self._progress.update(self._task, completed=fraction)

    def __enter__(self) -> RunProgress:
        return self

    def __exit__(self, *exc) -> None:
        if self._progress is not None:
            self._progress.stop()
