"""Batches of runs per task (issue 19): the local pool and Dask send several short runs per round
trip, sized by the measured run time. What must hold:

- the batcher hands out every task exactly once, in order, in batches of the sizes it documents;
- a batched sweep stores exactly the results an unbatched, serial one does (every raw result,
  value for value) and gives the same tables;
- a sweep interrupted while batches are in flight keeps every result the executor handed back,
  and resuming it computes only the rest and ends with the uninterrupted sweep's table.
"""

from collections.abc import Iterable, Iterator

import pandas as pd
import pytest

import airtcp
from airtcp.executors import (
    BATCH_MAX,
    Batcher,
    DaskExecutor,
    Executor,
    ExecutorError,
    LocalExecutor,
    SerialExecutor,
    Task,
    TaskResult,
    execute,
    execute_batch,
)
from airtcp.store import Store, decode_result

PARAMS = {"flows.video.app.rate": ["3Mbps", "7Mbps"], "simulation.duration": ["5s"]}
REPS = 5  # 10 runs


def _tasks(n: int) -> list[Task]:
    return [Task(f"k{i}", "", "t", None, 1, i) for i in range(n)]


def _done(batch: list[Task], wall: float) -> list[TaskResult]:
    return [TaskResult(t.key, b"", wall, "v") for t in batch]


def _drain(b: Batcher, wall: float) -> list[list[Task]]:
    out = []
    while len(b):
        batch = b.next()
        out.append(batch)
        b.observe(_done(batch, wall))
    assert b.next() == [] and b.size() == 0
    return out


def test_batcher_sizes_follow_the_run_time_and_cover_every_task_once():
    # Short runs (1 ms): 2 x workers single runs, then 50 ms of work per batch, capped by an even
    # share of what is left.
    batches = _drain(Batcher(_tasks(300), workers=2), wall=0.001)
    sizes = [len(b) for b in batches]
    assert sizes[:4] == [1, 1, 1, 1]
    assert sizes[4] == 50  # round(0.05 / 0.001)
    assert max(sizes) <= BATCH_MAX
    assert [t.key for b in batches for t in b] == [f"k{i}" for i in range(300)]
    # The tail: never more than an even share of the remainder per worker.
    left = 300 - sum(sizes[:-3])
    assert sizes[-3] <= -(-left // 2)
    # Long runs (1 s each): one run per batch throughout.
    assert {len(b) for b in _drain(Batcher(_tasks(20), workers=2), wall=1.0)} == {1}
    # Very short runs: capped at BATCH_MAX.
    assert max(len(b) for b in _drain(Batcher(_tasks(1000), workers=1), wall=1e-6)) == BATCH_MAX
    # A fixed size, the last batch shorter.
    assert [len(b) for b in _drain(Batcher(_tasks(23), workers=2, batch=7), wall=0.001)] == [7, 7, 7, 2]
    assert _drain(Batcher([], workers=2), wall=0.001) == []


def test_bad_batch_sizes_are_refused():
    for bad in (0, -3):
        with pytest.raises(ExecutorError, match=f"batch {bad}: must be at least 1"):
            Batcher(_tasks(3), workers=2, batch=bad)
        with pytest.raises(ExecutorError, match="must be at least 1"):
            LocalExecutor(2, batch=bad)


def test_execute_batch_is_execute_run_by_run(example_path):
    sc = airtcp.Scenario.from_toml(example_path)
    sc.set("simulation.duration", "5s")
    text = sc.to_toml()
    tasks = [Task(f"r{r}", text, "example", None, 7, r) for r in range(3)]
    batched = execute_batch(tasks)
    assert [r.key for r in batched] == ["r0", "r1", "r2"]
    for t, r in zip(tasks, batched, strict=True):
        assert decode_result(r.blob) == decode_result(execute(t).blob)


def _records(path) -> dict[str, dict]:
    with Store(path) as st:
        return {rec.key: rec.raw for rec in st.iter_records()}


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: LocalExecutor(2, batch=3), id="pool-batch-3"),
        pytest.param(lambda: LocalExecutor(2), id="pool-adaptive"),
        pytest.param(lambda: DaskExecutor("local", 2, batch=4), id="dask-batch-4"),
    ],
)
def test_batched_sweeps_store_exactly_the_serial_results(example_path, tmp_path, make):
    serial = airtcp.sweep(
        example_path, PARAMS, replications=REPS, executor=SerialExecutor(), store=tmp_path / "s.sqlite", progress=False
    )
    with make() as ex:
        batched = airtcp.sweep(
            example_path, PARAMS, replications=REPS, executor=ex, store=tmp_path / "b.sqlite", progress=False
        )
    a, b = _records(tmp_path / "s.sqlite"), _records(tmp_path / "b.sqlite")
    assert len(a) == 2 * REPS and a.keys() == b.keys()
    for key in a:
        assert a[key] == b[key], key
    pd.testing.assert_frame_equal(batched.runs, serial.runs, check_exact=True)
    pd.testing.assert_frame_equal(batched.aggregate, serial.aggregate, check_exact=True)


class _InterruptAfter(Executor):
    """Hands back ``k`` results of ``inner`` and then raises KeyboardInterrupt, as a Ctrl-C in the
    sweep's loop would (with batches still in flight)."""

    def __init__(self, inner: Executor, k: int):
        self.inner, self.k = inner, k
        self.workers = inner.workers
        self.handed = 0

    def map_unordered(self, tasks: Iterable[Task]) -> Iterator[TaskResult]:
        for res in self.inner.map_unordered(tasks):
            if self.handed == self.k:
                raise KeyboardInterrupt
            self.handed += 1
            yield res

    def abort(self) -> None:
        self.inner.abort()

    def close(self) -> None:
        self.inner.close()


def test_interrupted_batched_sweep_keeps_every_handed_result_and_resumes(example_path, tmp_path):
    store = tmp_path / "s.sqlite"
    total = 2 * REPS
    ex = _InterruptAfter(LocalExecutor(2, batch=3), k=4)  # mid-batch: batches of 3
    with pytest.raises(KeyboardInterrupt):
        airtcp.sweep(example_path, PARAMS, replications=REPS, executor=ex, store=store, progress=False)
    ex.close()
    assert ex.handed == 4
    with Store(store) as st:
        assert st.count() == 4  # every result handed back was stored before the interruption
    with LocalExecutor(2, batch=3) as again:
        resumed = airtcp.sweep(example_path, PARAMS, replications=REPS, executor=again, store=store, progress=False)
    assert (resumed.provenance["computed"], resumed.provenance["cached"]) == (total - 4, 4)
    clean = airtcp.sweep(example_path, PARAMS, replications=REPS, executor=SerialExecutor(), progress=False)
    pd.testing.assert_frame_equal(resumed.runs, clean.runs, check_exact=True)
