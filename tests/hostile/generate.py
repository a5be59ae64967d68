"""Generates the hostile-scenario corpus in ``tests/hostile/cases/`` and its manifest
``tests/hostile/expected.json`` (file -> expected outcome). Run from the repository root:

    python tests/hostile/generate.py            # write the cases (expectations as stated here)
    python tests/hostile/generate.py --record   # also run them and record the outcomes seen
                                                # for the cases marked "record" below (review the diff)

Each case is a small valid base scenario with one hostile change: a time, rate, size, count or
probability at or past its limit, a wrong type, a broken structure, a bad encoding, a hostile
name, a trace file that is not one, or a run too costly to finish. Expected outcomes:

- ``{"outcome": "ok"}``: valid; runs to the end in every tool;
- ``{"outcome": "invalid", "mention": TEXT}``: refused before the run, TEXT (a field path or
  words of the message) in the error, by ``airtcp validate``, ``airtcp run`` and ``airtcp-sim``;
- ``{"outcome": "limit"}``: valid, but stopped by the cost projection (``--max-wall``).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"

BASE = """name = "base"
[simulation]
duration = "2s"
seed = 1
warmup = "0.5s"
[[nodes]]
name = "h1"
[[nodes]]
name = "r"
[[nodes]]
name = "h2"
[[links]]
a = "h1"
b = "r"
rate = "10Mbps"
delay = "5ms"
queue = { type = "drop_tail", limit = "50pkt" }
loss = { type = "bernoulli", p = 0.01 }
[[links]]
a = "r"
b = "h2"
rate = "2Mbps"
delay = "20ms"
queue = { type = "red", min_th = "5pkt", max_th = "15pkt", limit = "50pkt" }
[[flows]]
name = "udp"
src = "h1"
dst = "h2"
start = "0.1s"
stop = "1.9s"
app = { type = "cbr", rate = "500kbps", payload = "500B" }
[[flows]]
name = "tcp"
src = "h2"
dst = "h1"
transport = {TCP}
app = { type = "bulk" }
""".replace(
    "{TCP}",
    '{ type = "tcp", variant = "newreno", window = "20pkt", min_rto = "200ms", max_rto = "60s", '
    'initial_rto = "1s", delayed_ack = "100ms" }',
)

WIFI = """name = "wifi"
[simulation]
duration = "1s"
[[nodes]]
name = "a"
position = [0, 0]
[[nodes]]
name = "b"
position = [150, 0]
[wireless]
preset = "ns2-wavelan"
queue_limit = "50pkt"
[[flows]]
name = "f"
src = "a"
dst = "b"
app = { type = "cbr", rate = "200kbps", payload = "500B" }
"""

BAD_TIMES = [
    ('"18446744073s"', "too large"),
    ('"1000000000.000000001s"', "too large"),
    ('"-1s"', ""),
    ('"1e3s"', ""),
    ('""', ""),
    ('"' + "9" * 5000 + 's"', "characters)"),
    ("5", "bare number"),
    ('"10 minutes"', "unknown time unit"),
    ('"0.5ns"', ""),
    ("nan", ""),
    ("true", ""),
    ("[]", ""),
]
BAD_RATES = [
    ('"0bps"', "positive"),
    ('"1001Gbps"', "too large"),
    ('"-5Mbps"', ""),
    ('"10Mbs"', "Mbps"),
    ('"' + "1" * 400 + 'bps"', "characters)"),
    ("1e6", "bare number"),
    ('"inf bps"', ""),
]
BAD_SIZES = [
    ('"18446744073709551615B"', ""),
    ('"1000000000001B"', "too large"),
    ('"-1B"', ""),
    ('"1.5B"', ""),
    ("1500", "bare number"),
    ('"1500 bytes"', "unknown size unit"),
]


def replace_line(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def cases() -> list[tuple[str, bytes | str, dict]]:
    out: list[tuple[str, bytes | str, dict]] = []

    def add(name: str, text: str | bytes, outcome: str = "ok", mention: str = "") -> None:
        expect = {"outcome": outcome}
        if outcome == "invalid":
            expect["mention"] = mention
        out.append((name, text, expect))

    # -- times, at every kind of field ------------------------------------------------------------
    time_fields = [
        ("duration", 'duration = "2s"', "duration = {}", "simulation.duration"),
        ("warmup", 'warmup = "0.5s"', "warmup = {}", "simulation.warmup"),
        ("delay", 'delay = "5ms"', "delay = {}", "links[0].delay"),
        ("start", 'start = "0.1s"', "start = {}", "flows[0].start"),
        ("stop", 'stop = "1.9s"', "stop = {}", "flows[0].stop"),
        ("min_rto", 'min_rto = "200ms"', "min_rto = {}", "flows[1].transport"),
        ("initial_rto", 'initial_rto = "1s"', "initial_rto = {}", "flows[1].transport"),
        ("delayed_ack", 'delayed_ack = "100ms"', "delayed_ack = {}", "flows[1].transport.delayed_ack"),
    ]
    for key, old, new, path in time_fields:
        for i, (value, _words) in enumerate(BAD_TIMES):
            ok = key == "delayed_ack" and value == "true"  # delayed_ack = true: the default timer
            add(f"time-{key}-{i:02d}", replace_line(BASE, old, new.format(value)), "ok" if ok else "invalid", path)
    for key, path in [("slot", "wireless.slot"), ("sifs", "wireless.sifs")]:
        for i, (bad, _) in enumerate([*BAD_TIMES[:4], ('"2s"', "")]):
            text = WIFI.replace('preset = "ns2-wavelan"', f'preset = "ns2-wavelan"\n{key} = {bad}')
            add(f"time-wifi-{key}-{i:02d}", text, "invalid", path)
    for i, (bad, _) in enumerate(BAD_TIMES[:6]):
        add(
            f"time-wifi-ll_delay-{i:02d}",
            WIFI.replace('preset = "ns2-wavelan"', f'preset = "ns2-wavelan"\nll_delay = {bad}'),
            "invalid",
            "wireless.ll_delay",
        )
    # the largest times are valid and run safely
    add("time-max-delay", replace_line(BASE, 'delay = "5ms"', 'delay = "1000000000s"'))
    add("time-max-ll_delay", WIFI.replace('preset = "ns2-wavelan"', 'preset = "ns2-wavelan"\nll_delay = "1000000000s"'))
    add("time-max-rto", replace_line(BASE, 'max_rto = "60s"', 'max_rto = "1000000000s"'))
    add(
        "time-max-delayed-ack-over",
        replace_line(BASE, 'delayed_ack = "100ms"', 'delayed_ack = "501ms"'),
        "invalid",
        "delayed_ack",
    )
    add("time-start-after-end", replace_line(BASE, 'start = "0.1s"', 'start = "1000000000s"'), "record")
    add("time-stop-before-start", replace_line(BASE, 'stop = "1.9s"', 'stop = "0.05s"'), "record")
    add("time-warmup-after-end", replace_line(BASE, 'warmup = "0.5s"', 'warmup = "3s"'), "invalid", "simulation.warmup")
    add(
        "time-zero-duration", replace_line(BASE, 'duration = "2s"', 'duration = "0s"'), "invalid", "simulation.duration"
    )
    add(
        "time-pareto-max-off",
        replace_line(
            BASE,
            'app = { type = "cbr", rate = "500kbps", payload = "500B" }',
            'app = { type = "pareto", rate = "500kbps", payload = "500B", on_time = "10ms", off_time = "1000000000s" }',
        ),
    )
    add(
        "time-pareto-off-over",
        replace_line(
            BASE,
            'app = { type = "cbr", rate = "500kbps", payload = "500B" }',
            'app = { type = "pareto", rate = "500kbps", payload = "500B", on_time = "10ms", off_time = "18000000000s" }',  # noqa: E501
        ),
        "invalid",
        "off_time",
    )

    # -- rates ------------------------------------------------------------------------------------
    for i, (value, _words) in enumerate(BAD_RATES):
        add(f"rate-link-{i:02d}", replace_line(BASE, 'rate = "10Mbps"', f"rate = {value}"), "invalid", "links[0].rate")
        add(
            f"rate-cbr-{i:02d}",
            replace_line(BASE, 'rate = "500kbps"', f"rate = {value}"),
            "invalid",
            "flows[0].app.rate",
        )
    add("rate-1bps-link", replace_line(BASE, 'rate = "10Mbps"', 'rate = "1bps"'))
    add("rate-max-link", replace_line(BASE, 'rate = "10Mbps"', 'rate = "1000Gbps"'))
    add(
        "rate-cbr-rounding",
        replace_line(
            BASE,
            'app = { type = "cbr", rate = "500kbps", payload = "500B" }',
            'app = { type = "cbr", rate = "3Gbps", payload = "1B" }',
        ),
        "invalid",
        "whole nanoseconds",
    )

    # -- sizes and counts -------------------------------------------------------------------------
    for i, (value, _words) in enumerate(BAD_SIZES):
        add(
            f"size-payload-{i:02d}",
            replace_line(BASE, 'payload = "500B"', f"payload = {value}"),
            "invalid",
            "flows[0].app.payload",
        )
        add(
            f"size-mac-overhead-{i:02d}",
            WIFI.replace('preset = "ns2-wavelan"', f'preset = "ns2-wavelan"\nmac_overhead = {value}'),
            "invalid",
            "wireless.mac_overhead",
        )
        add(
            f"size-window-{i:02d}",
            replace_line(BASE, 'window = "20pkt"', f"window = {value}"),
            "invalid",
            "flows[1].transport",
        )
    add(
        "size-payload-zero", replace_line(BASE, 'payload = "500B"', 'payload = "0B"'), "invalid", "flows[0].app.payload"
    )
    add(
        "size-payload-over",
        replace_line(BASE, 'payload = "500B"', 'payload = "65508B"'),
        "invalid",
        "flows[0].app.payload",
    )
    add("size-payload-max", replace_line(BASE, 'payload = "500B"', 'payload = "65507B"'))
    add(
        "size-mac-overhead-max",
        WIFI.replace('preset = "ns2-wavelan"', 'preset = "ns2-wavelan"\nmac_overhead = "65535B"'),
    )
    add(
        "size-mac-overhead-over",
        WIFI.replace('preset = "ns2-wavelan"', 'preset = "ns2-wavelan"\nmac_overhead = "1000000000000B"'),
        "invalid",
        "at most 65535",
    )
    # Windows and queues are capped by what a run can use (RFC 7323's 2^30 B window; 2^20 packets
    # or 2^30 B of queue): the cap runs, one more is refused naming the range.
    add("size-window-max", replace_line(BASE, 'window = "20pkt"', 'window = "1073741824B"'))
    add("size-window-huge", replace_line(BASE, 'window = "20pkt"', 'window = "100000000pkt"'), "invalid", "2^30")
    add(
        "size-window-initial-huge",
        replace_line(BASE, 'window = "20pkt"', 'window = "20pkt", initial_window = "1073741825B"'),
        "invalid",
        "flows[1].transport.initial_window",
    )
    add("size-window-over", replace_line(BASE, 'window = "20pkt"', 'window = "1000000001pkt"'), "invalid", "too large")
    add("size-queue-zero", replace_line(BASE, 'limit = "50pkt" }\nloss', 'limit = "0pkt" }\nloss'), "record")
    add("size-queue-max", replace_line(BASE, 'limit = "50pkt" }\nloss', 'limit = "1048576pkt" }\nloss'))
    add(
        "size-queue-huge",
        replace_line(BASE, 'limit = "50pkt" }\nloss', 'limit = "1000000000pkt" }\nloss'),
        "invalid",
        "1048576pkt",
    )
    add("size-queue-bytes-max", replace_line(BASE, 'limit = "50pkt" }\nloss', 'limit = "1073741824B" }\nloss'))
    add(
        "size-queue-bytes-huge",
        replace_line(BASE, 'limit = "50pkt" }\nloss', 'limit = "1073741825B" }\nloss'),
        "invalid",
        "links[0].queue.limit",
    )
    add("size-wifi-queue-max", replace_line(WIFI, 'queue_limit = "50pkt"', 'queue_limit = "1048576pkt"'))
    add(
        "size-wifi-queue-huge",
        replace_line(WIFI, 'queue_limit = "50pkt"', 'queue_limit = "4294967295pkt"'),
        "invalid",
        "wireless.queue_limit",
    )
    add(
        "size-queue-over",
        replace_line(BASE, 'limit = "50pkt" }\nloss', 'limit = "1000000001pkt" }\nloss'),
        "invalid",
        "too large",
    )
    add(
        "size-queue-bytes-over",
        replace_line(BASE, 'limit = "50pkt" }\nloss', 'limit = "1000001MB" }\nloss'),
        "invalid",
        "too large",
    )
    add("size-mss-zero", replace_line(BASE, 'window = "20pkt"', 'window = "20pkt", mss = "0B"'), "invalid", "mss")
    add("size-mss-over", replace_line(BASE, 'window = "20pkt"', 'window = "20pkt", mss = "65496B"'), "invalid", "mss")
    add(
        "size-red-mean-over",
        replace_line(BASE, 'max_th = "15pkt"', 'max_th = "15pkt", mean_packet_size = "1000000B"'),
        "invalid",
        "mean_packet_size",
    )
    add("size-file-max", replace_line(BASE, 'app = { type = "bulk" }', 'app = { type = "file", size = "1000000MB" }'))
    add(
        "size-file-zero",
        replace_line(BASE, 'app = { type = "bulk" }', 'app = { type = "file", size = "0B" }'),
        "invalid",
        "size",
    )

    # -- integers and probabilities ---------------------------------------------------------------
    for i, (value, outcome, mention) in enumerate(
        [
            ("-1", "invalid", "simulation.seed"),
            ("9223372036854775807", "ok", ""),
            ("9223372036854775808", "invalid", "TOML"),
            ("1.5", "invalid", "simulation.seed"),
            ('"3"', "invalid", "simulation.seed"),
            ("true", "invalid", "simulation.seed"),
            ("0", "ok", ""),
            ("-9223372036854775808", "invalid", "simulation.seed"),
        ]
    ):
        add(f"int-seed-{i:02d}", replace_line(BASE, "seed = 1", f"seed = {value}"), outcome, mention)
    for i, value in enumerate(["nan", "inf", "-inf", "-0.0", "1.0000001", "-0.1", '"0.1"', "1e308", "[0.1]"]):
        ok = value in ("-0.0",)
        add(
            f"prob-loss-{i:02d}",
            replace_line(BASE, "p = 0.01", f"p = {value}"),
            "ok" if ok else "invalid",
            "" if ok else "links[0].loss",
        )
    for i, value in enumerate(["0", "1001", "-1", "9223372036854775807", "1.5"]):
        add(
            f"int-dupthresh-{i:02d}",
            replace_line(BASE, 'window = "20pkt"', f'window = "20pkt", dupthresh = {value}'),
            "invalid",
            "dupthresh",
        )
    for i, (key, value) in enumerate(
        [
            ("cw_min", "0"),
            ("cw_min", "-5"),
            ("cw_max", "9223372036854775807"),
            ("cw_min", "2000"),
            ("short_retry_limit", "-1"),
            ("short_retry_limit", "0"),
            ("long_retry_limit", "99999999999"),
        ]
    ):
        add(
            f"int-wifi-{i:02d}",
            WIFI.replace('preset = "ns2-wavelan"', f'preset = "ns2-wavelan"\n{key} = {value}'),
            "invalid",
            "wireless",
        )
    for i, pos in enumerate(["[nan, 0]", "[inf, 0]", "[0]", "[1, 2, 3, 4]", '["a", 0]', "[1e308, 1e308]"]):
        text = WIFI.replace("position = [150, 0]", f"position = {pos}")
        add(f"position-{i:02d}", text, "record")

    # -- structure --------------------------------------------------------------------------------
    add("struct-empty", "", "invalid", "simulation")
    add("struct-comment-only", "# nothing here\n", "invalid", "simulation")
    add("struct-unknown-top", BASE + 'colour = "red"\n', "invalid", "colour")
    add("struct-unknown-nested", replace_line(BASE, "seed = 1", "seed = 1\nspeed = 3"), "invalid", "speed")
    add("struct-nodes-table", BASE.replace('[[nodes]]\nname = "h1"', '[nodes]\nname = "h1"', 1), "invalid", "TOML")
    add("struct-duplicate-key", replace_line(BASE, "seed = 1", "seed = 1\nseed = 2"), "invalid", "TOML")
    add(
        "struct-missing-simulation",
        BASE.replace('[simulation]\nduration = "2s"\nseed = 1\nwarmup = "0.5s"\n', ""),
        "invalid",
        "simulation",
    )
    add("struct-no-nodes", '[simulation]\nduration = "1s"\n', "invalid", "nodes")
    add("struct-deep-arrays", "a = " + "[" * 5000 + "]" * 5000 + "\n", "invalid", "TOML")
    add("struct-deep-tables", "a = " + "{b = " * 3000 + "1" + "}" * 3000 + "\n", "invalid", "TOML")
    add("struct-deep-dotted", '[simulation]\nduration = "1s"\n' + "x" + ".y" * 3000 + " = 1\n", "invalid", "TOML")
    add("struct-nul-in-string", replace_line(BASE, 'name = "base"', 'name = "ba\x00se"'), "invalid", "TOML")
    add("struct-control-char", replace_line(BASE, 'name = "base"', 'name = "ba\x07se"'), "invalid", "TOML")
    add("struct-garbage", "\x01\x02garbage{{{[[[\n", "invalid", "TOML")
    add("struct-long-line", BASE + "# " + "x" * 200_000 + "\n")
    add("struct-crlf", BASE.replace("\n", "\r\n"))
    add("struct-link-missing-node", replace_line(BASE, 'b = "h2"', 'b = "nowhere"'), "invalid", "links[1].b")
    add("struct-self-loop", replace_line(BASE, 'b = "r"', 'b = "h1"'), "record")
    add("struct-flow-to-self", replace_line(BASE, 'dst = "h2"', 'dst = "h1"'), "record")
    add(
        "struct-unreachable",
        BASE
        + '[[nodes]]\nname = "island"\n[[flows]]\nsrc = "h1"\ndst = "island"\napp = { type = "cbr", rate = "1Mbps" }\n',
        "invalid",
        "cannot reach",
    )
    many = "".join('[[nodes]]\nname = "n"\n' for _ in range(2000))
    add("struct-many-duplicates", '[simulation]\nduration = "1s"\n' + many, "invalid", "not shown")
    add("struct-unknown-app", replace_line(BASE, 'type = "cbr"', 'type = "video"'), "invalid", "flows[0].app.type")
    add(
        "struct-unknown-variant",
        replace_line(BASE, 'variant = "newreno"', 'variant = "quic"'),
        "invalid",
        "flows[1].transport",
    )
    add(
        "struct-route-loop",
        BASE
        + '[routing]\nroutes = [{ node = "h1", destination = "h2", via = "r" }, { node = "r", destination = "h2", via = "h1" }]\n',  # noqa: E501
        "invalid",
        "loop",
    )

    # -- names ------------------------------------------------------------------------------------
    for i, name in enumerate(
        ["..", "../../etc/passwd", "/abs", "<img src=x onerror=alert(1)>", "a|b*c_[d](e)", "x" * 20_000, "名前", " "]
    ):
        add(f"name-scenario-{i:02d}", replace_line(BASE, 'name = "base"', "name = " + json.dumps(name)), "ok")
    for i, name in enumerate(["..", "a/b", "", "x" * 20_000, "<b>", "nœud"]):
        # ".." is a valid node name (letters, digits, '_', '-', '.'; never a path): the links
        # and flows that still name "h1" are then the error
        mention = "no node has this name" if name == ".." else "nodes[0].name"
        add(f"name-node-{i:02d}", BASE.replace('name = "h1"', "name = " + json.dumps(name), 1), "invalid", mention)

    # -- trace files ------------------------------------------------------------------------------
    for i, (f, mention) in enumerate(
        [
            ("/dev/zero", "larger than"),
            ("/", "directory"),
            ("/nonexistent/trace.txt", "cannot read"),
            ("/dev/null", "record"),
        ]
    ):
        loss = f'loss = {{ type = "packet_trace", file = "{f}" }}'
        text = replace_line(BASE, 'loss = { type = "bernoulli", p = 0.01 }', loss)
        add(f"trace-file-{i:02d}", text, "record" if mention == "record" else "invalid", mention)

    # -- encodings --------------------------------------------------------------------------------
    accented = replace_line(BASE, 'name = "base"', 'name = "café"')
    add("enc-bom", b"\xef\xbb\xbf" + accented.encode())
    add("enc-latin1", accented.encode("latin-1"), "invalid", "Latin-1")
    add("enc-utf16", accented.encode("utf-16"), "invalid", "UTF-16")
    add("enc-utf16be", accented.encode("utf-16-be"), "invalid", "UTF-16")
    add("enc-utf32", accented.encode("utf-32"), "invalid", "UTF-32")
    add("enc-bom-twice", b"\xef\xbb\xbf\xef\xbb\xbf" + accented.encode())  # the parser skips a second BOM too
    add(
        "enc-truncated-utf8", accented.encode()[: accented.encode().index("é".encode()) + 1] + b"\n", "invalid", "UTF-8"
    )

    # -- runs too costly to finish --------------------------------------------------------------------
    add(
        "cost-long-cbr",
        replace_line(replace_line(BASE, 'duration = "2s"', 'duration = "1000000000s"'), 'stop = "1.9s"\n', ""),
        "limit",
    )
    add(
        "cost-fast-long",
        replace_line(
            replace_line(BASE, 'duration = "2s"', 'duration = "1000000000s"'), 'rate = "2Mbps"', 'rate = "10Gbps"'
        ),
        "limit",
    )
    return out


def main() -> None:
    record = "--record" in sys.argv
    if CASES.exists():
        shutil.rmtree(CASES)
    CASES.mkdir()
    manifest_path = HERE / "expected.json"
    old = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    manifest = {}
    for name, text, expect in cases():
        path = CASES / f"{name}.toml"
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        if expect["outcome"] == "record":
            expect = old.get(path.name, expect)
        manifest[path.name] = expect
    if record:
        sys.path.insert(0, str(HERE.parent))
        from test_safety_hostile import observe

        for name, expect in manifest.items():
            if expect["outcome"] == "record":
                manifest[name] = observe(CASES / name)
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print(f"{len(manifest)} cases in {CASES}")


if __name__ == "__main__":
    main()
