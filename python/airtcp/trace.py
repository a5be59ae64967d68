"""Seeing inside a run: packet captures (pcap files for Wireshark and tshark) and the event trace.

A scenario asks for captures in ``[outputs]`` (``pcap = ["*"]``, ``pcap_dir``, ``pcap_snaplen``;
see ``docs/trace.md``); :func:`capture_into` turns them on for one run from Python, as
``airtcp run --pcap DIR`` does. The files a run wrote are listed in ``RunResult.captures``. The
event trace (``[outputs.trace]``, or :func:`trace_on`) is ``RunResult.trace``, one row per event;
:func:`write_trace` writes it as CSV or Parquet (``airtcp run --trace FILE``).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .errors import UserError
from .scenario import Scenario


def capture_into(scenario: Scenario, directory: str | Path) -> Scenario:
    """Makes ``scenario`` write its packet captures into ``directory`` (created if missing): of the
    interfaces its ``[outputs] pcap`` names, or of every interface if it names none. Returns the
    scenario (changed in place)."""
    path = Path(directory).expanduser()
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"--pcap {directory}: cannot create the folder ({e.strerror})") from None
    outputs = scenario.data.setdefault("outputs", {})
    if not outputs.get("pcap"):
        outputs["pcap"] = ["*"]
    outputs["pcap_dir"] = str(path.resolve())
    return scenario


def capture_lines(raw: dict) -> list[str]:
    """One line per capture file a run wrote (and one per file that failed), for the terminal."""
    files = raw.get("pcap", [])
    if not files:
        return []
    ok = [f for f in files if not f.get("error")]
    lines = []
    if ok:
        folder = Path(ok[0]["path"]).parent
        frames = sum(f["frames"] for f in ok)
        lines.append(f"pcap: {len(ok)} files, {frames:,} frames written to {folder}")
    lines += [f"pcap: {f['node']}:{f['iface']}: {f['error']}" for f in files if f.get("error")]
    return lines


TRACE_COLUMNS = ["time", "event", "node", "flow", "uid", "size", "proto", "seq", "end", "ack", "sack", "copy", "detail"]


def trace_on(scenario: Scenario) -> Scenario:
    """Makes ``scenario`` record the event trace: as its ``[outputs.trace]`` says, or every event
    if it has none. Returns the scenario (changed in place)."""
    scenario.data.setdefault("outputs", {}).setdefault("trace", {})
    return scenario


def trace_frame(raw: dict) -> pd.DataFrame:
    """The event trace of a raw result as a DataFrame (columns :data:`TRACE_COLUMNS`; empty
    without ``[outputs.trace]``). Integer columns use -1 for "none" (see ``docs/trace.md``)."""
    t = raw.get("trace")
    if not t:
        return pd.DataFrame(columns=TRACE_COLUMNS)
    return pd.DataFrame({c: t[c] for c in TRACE_COLUMNS})


def check_trace_path(path: str | Path) -> None:
    """Checks before a run that ``path`` can take a trace (its suffix, and pyarrow for Parquet)."""
    path = Path(path)
    if path.suffix not in (".csv", ".parquet"):
        raise UserError(f"--trace {path}: the file name must end in .csv or .parquet")
    if path.parent.exists() and not path.parent.is_dir():
        raise UserError(f"--trace {path}: {path.parent} is not a folder")
    if path.suffix == ".parquet":
        import importlib.util

        if importlib.util.find_spec("pyarrow") is None:
            raise UserError(f"--trace {path}: Parquet needs pyarrow: pip install 'airtcp[parquet]' (or write .csv)")


def write_trace(df: pd.DataFrame, path: str | Path) -> Path:
    """Writes an event trace as CSV (``.csv``) or Parquet (``.parquet``, needs pyarrow), creating
    the folder if needed."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"{path}: cannot create the folder ({e.strerror})") from None
    if path.suffix == ".csv":
        df.to_csv(path, index=False)
    elif path.suffix == ".parquet":
        import importlib.util

        if importlib.util.find_spec("pyarrow") is None:
            raise UserError(
                f"{path}: Parquet needs pyarrow, which is not installed; install it with: "
                "pip install 'airtcp[parquet]' (or write .csv)"
            )
        df.to_parquet(path, index=False)
    else:
        raise UserError(f"{path}: the trace file name must end in .csv or .parquet")
    return path
