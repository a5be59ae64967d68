"""Where runs execute: in this process, a local process pool, or a Dask cluster.

Every executor runs the same function, :func:`execute`, on the same :class:`Task` (the scenario as
canonical TOML text, the seed and the replication index) and the core is deterministic, so a sweep
gives identical numbers on any executor; only the wall time differs. Executors yield results as
they finish; the sweep stores each one at once and orders them itself.

- :class:`SerialExecutor`: one run after another in this process (``jobs=1``);
- :class:`LocalExecutor`: a pool of worker processes on this machine (default: one per core);
- :class:`DaskExecutor`: a Dask distributed cluster, either an existing scheduler
  (``tcp://host:8786``; its workers need the same airtcp version installed, and any trace files at
  the same paths) or ``"local"``, a LocalCluster of worker processes started for the sweep.

The pool and Dask send runs to their workers in **batches** (issue 19: sweeps of thousands of
short runs, where each task's round trip costs more than the run). A batch is a list of tasks run
one after the other by :func:`execute_batch`, each result exactly :func:`execute`'s. Batch sizes
follow the measured run time (:class:`Batcher`): single runs first, then about
:data:`BATCH_TARGET_S` (pool) or :data:`DASK_BATCH_TARGET_S` (Dask) of work per batch, so a batch
of long runs is one run, and only a few batches per worker are in flight at a time. Results are
yielded (and stored by the sweep) a batch at a time as batches finish; an interrupted sweep loses
only the batches in progress, at most about that much work each (one run when runs are long).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from .errors import RunLimitError, SimulationError, UserError
from .store import decode_result, encode_json


@dataclass(frozen=True)
class Task:
    """One run to execute: everything a worker needs, as plain picklable data."""

    key: str
    toml: str
    source: str
    base_dir: str | None
    seed: int
    replication: int


@dataclass
class TaskResult:
    """What a worker sends back: the core's result, already encoded as it is stored (the encoding
    work is spread over the workers, and the transfer is compressed), and how long the run took."""

    key: str
    blob: bytes
    wall_time_s: float
    version: str

    @property
    def raw(self) -> dict:
        return decode_result(self.blob)


def execute(task: Task) -> TaskResult:
    """Runs one task (in whatever process the executor chose)."""
    from . import _core
    from .run import default_max_memory

    memory = default_max_memory()
    start = time.perf_counter()
    try:
        text = _core.run_json(task.toml, task.source, task.base_dir, task.seed, task.replication, None, None, memory)
    except _core.SimulationError as e:
        raise SimulationError(task.source, task.seed, task.replication, str(e.args[0] if e.args else e)) from None
    except _core.RunLimitError as e:
        raise RunLimitError(f"{task.source} (seed {task.seed}, replication {task.replication}): {e}") from None
    wall = time.perf_counter() - start
    return TaskResult(task.key, encode_json(text), wall, _core.__version__)


def execute_batch(tasks: list[Task]) -> list[TaskResult]:
    """Runs ``tasks`` one after the other (in whatever process the executor chose): one round
    trip for several short runs. Each result is exactly what :func:`execute` gives for its task."""
    return [execute(t) for t in tasks]


#: Work per batch that :class:`Batcher` aims at on the local pool, in seconds of run time: long
#: enough that a batch's round trip (pickling and pipes: about 0.5 ms of CPU in all, measured) is
#: small against it, short enough that an interrupted sweep loses little and the last batches
#: balance.
BATCH_TARGET_S = 0.05
#: The same for Dask, whose round trip through the scheduler costs about 7 ms of CPU per task
#: (client, scheduler and worker; measured with a LocalCluster of 2 workers, issue 19).
DASK_BATCH_TARGET_S = 0.25
#: The most runs in one batch.
BATCH_MAX = 64
#: Batches in flight per worker (queued at the pool or scheduler, or running).
IN_FLIGHT_PER_WORKER = 4


class Batcher:
    """Cuts a list of tasks, in order, into batches sized by the run time measured so far.

    ``batch=None`` (adaptive): the first ``2 x workers`` batches hold one task each; after that a
    batch holds ``round(target_s / mean run time)`` tasks (the mean of every run finished so far,
    from :attr:`TaskResult.wall_time_s`), between 1 and ``batch_max``, and never more than an even
    share of what is left (``remaining / workers``), so that the last batches keep every worker
    busy. ``batch=n``: batches of ``n`` tasks (the last may be shorter); ``batch=1`` is one task per
    round trip, as before batching."""

    def __init__(
        self,
        tasks: Iterable[Task],
        workers: int,
        batch: int | None = None,
        *,
        target_s: float = BATCH_TARGET_S,
        batch_max: int = BATCH_MAX,
    ):
        if batch is not None and batch < 1:
            raise ExecutorError(f"batch {batch}: must be at least 1 (or None: sized by run time)")
        self._todo: deque[Task] = deque(tasks)
        self.workers = max(1, workers)
        self.batch = batch
        self.target_s = target_s
        self.batch_max = batch_max
        self._handed = 0
        self._runs = 0
        self._run_time = 0.0

    def __len__(self) -> int:
        """Tasks not handed out yet."""
        return len(self._todo)

    def size(self) -> int:
        """The size the next batch will have (0 when nothing is left)."""
        left = len(self._todo)
        if left == 0:
            return 0
        if self.batch is not None:
            return min(self.batch, left)
        if self._handed < 2 * self.workers or self._runs == 0:
            return 1
        mean = self._run_time / self._runs
        n = round(self.target_s / mean) if mean > 0 else self.batch_max
        n = min(n, self.batch_max, -(-left // self.workers))
        return max(1, min(n, left))

    def next(self) -> list[Task]:
        """The next batch (empty when nothing is left)."""
        n = self.size()
        if n:
            self._handed += 1
        return [self._todo.popleft() for _ in range(n)]

    def observe(self, results: Iterable[TaskResult]) -> None:
        """Records the run times of finished runs."""
        for r in results:
            self._runs += 1
            self._run_time += r.wall_time_s


def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent, which stops the sweep cleanly (no tracebacks)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: How often a pool worker checks that its parent is alive (seconds).
PARENT_POLL_S = 0.5


def _watch_parent(parent: int) -> None:
    """Ends this process as soon as ``parent`` is gone: a sweep killed with ``kill -9`` (or by
    the out-of-memory killer) gets no chance to stop its pool, and its workers would otherwise
    live on, each holding a run's memory. Once the parent dies the worker is re-parented, so
    ``os.getppid()`` changes; polling it is portable across POSIX systems and, unlike Linux's
    ``PR_SET_PDEATHSIG``, not fooled by the death of the parent's *thread* that started it."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os._exit(1)


def _worker_init(parent: int) -> None:
    """Initialiser of local pool workers: Ctrl-C left to the parent, death with the parent, and
    huge pages for the heap (large runs faster, same results; docs/performance.md, "Huge pages
    for the heap"). The user's own process is left as it is."""
    from . import _core

    _ignore_sigint()
    _core.prefer_huge_pages()
    threading.Thread(target=_watch_parent, args=(parent,), name="airtcp-parent-watch", daemon=True).start()


class ExecutorError(UserError, RuntimeError):
    """An executor cannot be set up (e.g. a Dask scheduler that does not answer)."""


class Executor(ABC):
    """Runs tasks and yields their results in completion order."""

    description = "executor"
    workers = 1

    @abstractmethod
    def map_unordered(self, tasks: Iterable[Task]) -> Iterator[TaskResult]:
        """Runs ``tasks`` and yields each result as soon as it is finished."""

    def close(self) -> None:  # noqa: B027 - a no-op by default: the serial executor holds no workers
        """Releases workers once their runs are done (idempotent)."""

    def abort(self) -> None:
        """Stops now, abandoning runs in progress (Ctrl-C, or an error while consuming results).
        Finished runs have already been handed back; ``close`` afterwards is a no-op."""
        self.close()

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, exc_type, *exc) -> None:
        if exc_type is not None:
            self.abort()
        else:
            self.close()


class SerialExecutor(Executor):
    """Runs each task in this process, one after the other."""

    description = "serial (this process)"

    def map_unordered(self, tasks: Iterable[Task]) -> Iterator[TaskResult]:
        for t in tasks:
            yield execute(t)


class LocalExecutor(Executor):
    """A pool of ``jobs`` worker processes (default: one per core). The pool starts on first use
    and is reused by later sweeps until :meth:`close`."""

    def __init__(self, jobs: int | None = None, *, batch: int | None = None):
        self.workers = jobs or os.cpu_count() or 1
        self.batch = batch
        Batcher((), self.workers, batch)  # checks `batch`
        self.description = f"local process pool ({self.workers} workers)"
        self._pool: ProcessPoolExecutor | None = None

    def _get_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # "spawn": workers start clean (no copy of the parent's threads, e.g. the progress bar's).
            ctx = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=ctx, initializer=_worker_init, initargs=(os.getpid(),)
            )
        return self._pool

    def map_unordered(self, tasks: Iterable[Task]) -> Iterator[TaskResult]:
        pool = self._get_pool()
        batcher = Batcher(tasks, self.workers, self.batch)
        window = self.workers * IN_FLIGHT_PER_WORKER
        pending: set = set()

        def submit() -> bool:
            b = batcher.next()
            if b:
                pending.add(pool.submit(execute_batch, b))
            return bool(b)

        # Workers start on the first submissions. Started with SIGINT ignored, they inherit that from
        # birth (a Ctrl-C while one is still importing would otherwise print its traceback); the
        # parent's handler is restored at once and handles Ctrl-C for the sweep.
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            while len(pending) < window and submit():
                pass
        finally:
            if main:
                signal.signal(signal.SIGINT, previous)
        # Pending futures are never cancelled one by one: when the consumer stops early it calls
        # `abort`, whose terminated workers make the pool's manager thread fail every pending future
        # with BrokenProcessPool; cancelling concurrently would race with that thread (CPython 3.11
        # then prints an InvalidStateError traceback from it).
        # At most `window` futures are pending, so each `wait` (which installs a waiter on every
        # pending future) is O(window), not O(runs) (issue 19: sweeps of 10,000 short runs).
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    pending.discard(fut)
                    try:
                        results = fut.result()
                    except BrokenProcessPool:
                        raise ExecutorError(
                            "a worker process died (killed, out of memory, or a crash of the core; in a "
                            "script, also check that the sweep runs under `if __name__ == '__main__':`, "
                            "since worker processes import the main module)"
                        ) from None
                    batcher.observe(results)
                    while len(pending) < window and submit():
                        pass
                    yield from results
        except KeyboardInterrupt:
            self.abort()  # do not wait for the runs in progress
            raise

    def abort(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        procs = list(getattr(pool, "_processes", {}).values())
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.join(timeout=5)
        # A worker terminated while writing its result leaves half a message in the result pipe, and
        # the pool's manager thread then blocks reading the rest for ever (the parent's own copy of
        # the pipe's write end keeps it open); the interpreter joins that thread at exit, so the
        # process would hang. Closing that copy once the workers are gone turns the read into an
        # EOF, which the manager thread handles as a broken pool and exits.
        writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
        if writer is not None:
            with contextlib.suppress(OSError):
                writer.close()
        pool.shutdown(wait=False)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class DaskExecutor(Executor):
    """Runs tasks on a Dask distributed cluster: ``address`` is a scheduler address
    (``tcp://host:8786``) or ``"local"`` for a LocalCluster of ``jobs`` single-threaded worker
    processes on this machine (default: one per core)."""

    def __init__(
        self,
        address: str = "local",
        jobs: int | None = None,
        *,
        connect_timeout_s: float = 20.0,
        batch: int | None = None,
    ):
        self.batch = batch
        self._client = None
        Batcher((), 1, batch)  # checks `batch`
        try:
            from distributed import Client, LocalCluster
        except ImportError as e:
            raise ExecutorError(
                f"--dask needs Dask, which is not installed ({e}); install it with: pip install 'airtcp[dask]' "
                "(or run without --dask: the local process pool gives identical numbers)"
            ) from None
        self.address = address
        self._cluster = None
        try:
            if address == "local":
                n = jobs or os.cpu_count() or 1
                self._cluster = LocalCluster(
                    n_workers=n,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=None,
                    silence_logs=40,  # logging.ERROR
                )
                self._client = Client(self._cluster)
                self.description = f"Dask LocalCluster ({n} workers)"
            else:
                if "://" not in address and ":" not in address:
                    raise ExecutorError(
                        f"--dask {address}: expected 'local' or a scheduler address like tcp://host:8786"
                    )
                self._client = Client(address, timeout=connect_timeout_s)
                self.description = f"Dask cluster at {address}"
        except ExecutorError:
            self.close()
            raise
        except (OSError, TimeoutError, ValueError) as e:
            self.close()
            raise ExecutorError(f"cannot connect to the Dask scheduler at {address}: {e}") from None
        info = self._client.scheduler_info()
        self.workers = max(1, sum(w.get("nthreads", 1) for w in info.get("workers", {}).values()))

    def map_unordered(self, tasks: Iterable[Task]) -> Iterator[TaskResult]:
        from distributed import as_completed

        batcher = Batcher(tasks, self.workers, self.batch, target_s=DASK_BATCH_TARGET_S)
        window = self.workers * IN_FLIGHT_PER_WORKER
        pending: set = set()
        queue = as_completed(with_results=True)

        def submit() -> bool:
            b = batcher.next()
            if b:
                # Keys name the batch's first run and its size: unique within a sweep (a run key
                # appears once), and a batch of one has the key a single run had before batching.
                key = f"airtcp-run-{b[0].key}" if len(b) == 1 else f"airtcp-batch-{b[0].key}-{len(b)}"
                fut = self._client.submit(execute_batch, b, key=key, pure=False)
                pending.add(fut)
                queue.add(fut)
            return bool(b)

        while len(pending) < window and submit():
            pass
        try:
            for fut, results in queue:
                pending.discard(fut)
                batcher.observe(results)
                while len(pending) < window and submit():
                    pass
                yield from results
        finally:
            self._client.cancel([f for f in pending if not f.done()])

    def close(self) -> None:
        client = getattr(self, "_client", None)
        if client is not None:
            client.close()
            self._client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


def make_executor(jobs: int | None = None, dask: str | None = None, batch: int | None = None) -> Executor:
    """The executor for ``--jobs``/``--dask``: Dask if ``dask`` is given, else serial for
    ``jobs=1`` and a local pool otherwise (default: one worker per core). ``batch``: runs per
    task for the pool and Dask (None: sized by the measured run time, see :class:`Batcher`)."""
    if jobs is not None and jobs < 1:
        raise ExecutorError(f"--jobs {jobs}: must be at least 1")
    if dask:
        return DaskExecutor(dask, jobs, batch=batch)
    if jobs == 1:
        return SerialExecutor()
    return LocalExecutor(jobs, batch=batch)
