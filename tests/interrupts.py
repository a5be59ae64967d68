"""Helpers for the tests that press Ctrl-C on a child process."""

import signal


def default_sigint() -> None:
    """``subprocess.Popen(preexec_fn=default_sigint)``: the child handles SIGINT as in a terminal
    even when the tests themselves run as a background job. A shell starts a background command
    (``cmd &``) with SIGINT ignored, its children inherit that, and Python then keeps it ignored
    (no KeyboardInterrupt): a Ctrl-C test would wait for a run that never hears it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
