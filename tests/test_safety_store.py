"""The results store detects corruption: every stored result carries a SHA-256 checksum verified
on read, ``airtcp store verify`` checks them all, and a damaged file gives a clean error (never a
``sqlite3``/``zlib`` traceback)."""

import json
import random
import sqlite3
import subprocess
import sys
import zlib

import pytest

import airtcp
from airtcp.store import DamagedResultError, Store, StoreError, check_blob, decode_result, encode_result

AIRTCP = [sys.executable, "-m", "airtcp.cli"]


def cli(*args):
    return subprocess.run([*AIRTCP, *args], capture_output=True, text=True)


def small() -> airtcp.Scenario:
    sc = airtcp.Scenario(name="s", duration="1s").add_nodes("a", "b").add_link("a", "b", rate="10Mbps", delay="5ms")
    return sc.add_flow("a", "b", app={"type": "cbr", "rate": "1Mbps"}, name="f")


@pytest.fixture
def store_path(tmp_path):
    path = tmp_path / "runs.sqlite"
    airtcp.sweep(small(), {"links.a-b.delay": ["1ms", "2ms", "5ms"]}, replications=2, store=path, jobs=1, name="t")
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


def test_a_result_round_trips_and_carries_a_checksum():
    raw = {"flows": [{"goodput_bps": 16020.5}], "x": float("inf")}
    blob = encode_result(raw)
    assert check_blob(blob) is None and decode_result(blob) == raw
    legacy = zlib.compress(json.dumps(raw).encode())  # stored before checksums: still read
    assert check_blob(legacy) is None and decode_result(legacy) == raw


def _edit_first_result(path, edit):
    with sqlite3.connect(path) as db:
        key, blob = db.execute("SELECT key, result FROM runs ORDER BY rowid LIMIT 1").fetchone()
        db.execute("UPDATE runs SET result = ? WHERE key = ?", (edit(bytes(blob)), key))
    return key


def test_an_edited_result_is_detected_not_used(store_path):
    def move_the_mean(blob: bytes) -> bytes:
        head, payload = blob[:36], blob[36:]
        raw = json.loads(zlib.decompress(payload))
        raw["flows"][0]["goodput_bps"] *= 0.76  # a plausible number, silently wrong
        return head + zlib.compress(json.dumps(raw).encode())

    key = _edit_first_result(store_path, move_the_mean)
    with Store(store_path) as st, pytest.raises(DamagedResultError, match="checksum mismatch"):
        st.get_many([key])
    p = cli("store", "verify", "--store", str(store_path))
    assert p.returncode == 1 and "1 damaged" in p.stdout and key[:16] in p.stdout, p.stdout
    p = cli("store", "verify", "--store", str(store_path), "--delete-damaged")
    assert p.returncode == 0 and "deleted" in p.stdout
    assert cli("store", "verify", "--store", str(store_path)).returncode == 0
    with Store(store_path) as st:
        assert st.count() == 5


def test_a_byte_flip_inside_a_result_is_a_clean_error(store_path):
    key = _edit_first_result(store_path, lambda b: b[:60] + bytes([b[60] ^ 0x10]) + b[61:])
    with Store(store_path) as st, pytest.raises(StoreError) as info:
        st.get_many([key])
    assert "damaged" in str(info.value) and "verify" in str(info.value)
    p = cli("store", "export", "--csv", str(store_path.parent / "x.csv"), "--store", str(store_path))
    assert p.returncode == 2 and "damaged" in p.stderr and "Traceback" not in p.stderr


def test_byte_flips_anywhere_in_the_file_never_give_a_traceback(store_path, tmp_path):
    original = store_path.read_bytes()
    rng = random.Random(18)
    outcomes = set()
    for trial in range(12):
        data = bytearray(original)
        for _ in range(8):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
        damaged = tmp_path / f"flip{trial}.sqlite"
        damaged.write_bytes(bytes(data))
        for cmd in (["info"], ["verify"], ["export", "--csv", str(tmp_path / f"e{trial}.csv")]):
            p = cli("store", *cmd, "--store", str(damaged))
            assert "Traceback" not in p.stderr, p.stderr
            assert p.returncode in (0, 1, 2), (cmd, p.returncode, p.stderr)
            outcomes.add((cmd[0], p.returncode))
    assert any(code != 0 for _, code in outcomes), "no flip was noticed at all"


def test_a_file_that_is_not_a_store_is_a_clean_error(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"\x00garbage" * 1000)
    p = cli("store", "info", "--store", str(junk))
    assert p.returncode == 2 and "Traceback" not in p.stderr and str(junk) in p.stderr
