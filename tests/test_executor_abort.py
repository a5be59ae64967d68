"""`LocalExecutor.abort` must leave no thread that the interpreter would wait for at exit.

A worker terminated while writing its result leaves half a message in the pool's result pipe; the
pool's manager thread then blocks reading the rest, and Python joins that thread at exit, so the
whole process (a sweep stopped with Ctrl-C, or the test suite) would hang. The test writes half a
message itself, which is what such a worker leaves behind.
"""

import os
import struct

from airtcp.executors import LocalExecutor


def test_abort_unblocks_a_manager_thread_reading_half_a_result():
    ex = LocalExecutor(jobs=1)
    pool = ex._get_pool()
    assert pool.submit(int, "7").result(timeout=60) == 7  # workers and the manager thread are up
    manager = pool._executor_manager_thread
    # A length header announcing 1,000 bytes, followed by only 10 of them.
    os.write(pool._result_queue._writer.fileno(), struct.pack("!i", 1000) + b"x" * 10)
    ex.abort()
    manager.join(timeout=30)
    assert not manager.is_alive(), "the pool's manager thread still blocks on the half-written result"
