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
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from .errors import RunLimitError, SimulationError, UserError
from .store import decode_result, encode_result


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
        raw = _core.run(task.toml, task.source, task.base_dir, task.seed, task.replication, None, None, memory)
    except _core.SimulationError as e:
        raise SimulationError(task.source, task.seed, task.replication, str(e.args[0] if e.args else e)) from None
    except _core.RunLimitError as e:
        raise RunLimitError(f"{task.source} (seed {task.seed}, replication {task.replication}): {e}") from None
    wall = time.perf_counter() - start
    return TaskResult(task.key, encode_result(raw), wall, _core.__version__)


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
    """Initialiser of local pool workers: Ctrl-C left to the parent, and death with the parent."""
    _ignore_sigint()
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

    def __init__(self, jobs: int | None = None):
        self.workers = jobs or os.cpu_count() or 1
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
        # Workers start on the first submissions. Started with SIGINT ignored, they inherit that from
        # birth (a Ctrl-C while one is still importing would otherwise print its traceback); the
        # parent's handler is restored at once and handles Ctrl-C for the sweep.
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            pending = {pool.submit(execute, t) for t in tasks}
        finally:
            if main:
                signal.signal(signal.SIGINT, previous)
        # Pending futures are never cancelled one by one: when the consumer stops early it calls
        # `abort`, whose terminated workers make the pool's manager thread fail every pending future
        # with BrokenProcessPool; cancelling concurrently would race with that thread (CPython 3.11
        # then prints an InvalidStateError traceback from it).
        # `as_completed` installs one waiter on every future once; a loop of `wait(pending,
        # FIRST_COMPLETED)` installed and removed one per pending future on every call, O(runs^2)
        # in the parent process (issue 19: sweeps of 10,000 short runs).
        try:
            for fut in as_completed(pending):
                try:
                    yield fut.result()
                except BrokenProcessPool:
                    raise ExecutorError(
                        "a worker process died (killed, out of memory, or a crash of the core; in a "
                        "script, also check that the sweep runs under `if __name__ == '__main__':`, "
                        "since worker processes import the main module)"
                    ) from None
        except KeyboardInterrupt:
            self.abort()  # do not wait for the runs in progress
            raise

    def abort(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        for proc in list(getattr(pool, "_processes", {}).values()):
            proc.terminate()
        pool.shutdown(wait=False)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class DaskExecutor(Executor):
    """Runs tasks on a Dask distributed cluster: ``address`` is a scheduler address
    (``tcp://host:8786``) or ``"local"`` for a LocalCluster of ``jobs`` single-threaded worker
    processes on this machine (default: one per core)."""

    def __init__(self, address: str = "local", jobs: int | None = None, *, connect_timeout_s: float = 20.0):
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

        futures = [self._client.submit(execute, t, key=f"airtcp-run-{t.key}", pure=False) for t in tasks]
        if not futures:
            return
        try:
            for _fut, result in as_completed(futures, with_results=True):
                yield result
        finally:
            self._client.cancel([f for f in futures if not f.done()])

    def close(self) -> None:
        client = getattr(self, "_client", None)
        if client is not None:
            client.close()
            self._client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


def make_executor(jobs: int | None = None, dask: str | None = None) -> Executor:
    """The executor for ``--jobs``/``--dask``: Dask if ``dask`` is given, else serial for
    ``jobs=1`` and a local pool otherwise (default: one worker per core)."""
    if jobs is not None and jobs < 1:
        raise ExecutorError(f"--jobs {jobs}: must be at least 1")
    if dask:
        return DaskExecutor(dask, jobs)
    if jobs == 1:
        return SerialExecutor()
    return LocalExecutor(jobs)
