"""What the core accepts, from the core itself: TCP variants, 802.11 presets, loss models,
applications, queues, schemes — so a list printed by ``airtcp list`` can never drift from what the
validator accepts.

Two sources, both the core's own:

- constants the core exposes, through the binding ``airtcp._core.registries()``: the TCP
  variants (``tcp::Variant::ALL``) and the scheme types (``schemes::TYPES``);
- for the lists the core keeps only inside its validator (loss types, applications, wireless
  presets and PHYs, queue types, TCP timer presets: private constants or message text in
  ``scenario/validate/*.rs``), the validator's own answer: one probe scenario with an unknown
  value in each of those fields is validated, and the allowed names are read from the messages
  ("allowed loss types: "none", "bernoulli", ...").

>>> "newreno" in names("variants") and "gilbert_elliott" in names("losses")
True
"""

from __future__ import annotations

import functools
import re

from . import _core

# list name -> (field path in the probe's errors, description)
_PROBED: dict[str, tuple[str, str]] = {
    "losses": ("links[0].loss.type", "loss models ([links.loss] / [[wireless.loss]] type = ...)"),
    "queues": ("links[0].queue.type", "queue disciplines ([links.queue] type = ...)"),
    "presets": ("wireless.preset", "802.11 presets ([wireless] preset = ...)"),
    "phys": ("wireless.phy", "802.11 PHYs ([wireless] phy = ...)"),
    "apps": ("flows[0].app.type", "applications ([flows.app] type = ...)"),
    "tcp_presets": ("flows[1].transport.preset", "TCP timer presets ([flows.transport] preset = ...)"),
}
_CONSTANTS = {
    "variants": "TCP variants ([flows.transport] variant = ...)",
    "schemes": "schemes ([[schemes]] type = ...)",
}
DESCRIPTIONS: dict[str, str] = {
    **{k: d for k, (_, d) in _PROBED.items()},
    **_CONSTANTS,
    "studies": "reproduced studies (airtcp reproduce NAME)",
}
LISTS = ("presets", "variants", "losses", "apps", "schemes", "studies", "queues", "phys", "tcp_presets")

_PROBE = """
name = "probe"
[simulation]
duration = "1s"
[[nodes]]
name = "a"
position = [0, 0]
[[nodes]]
name = "b"
position = [100, 0]
[[links]]
a = "a"
b = "b"
rate = "1Mbps"
delay = "1ms"
loss = { type = "\\u0000" }
queue = { type = "\\u0000" }
[wireless]
preset = "\\u0000"
phy = "\\u0000"
[[flows]]
src = "a"
dst = "b"
app = { type = "\\u0000" }
[[flows]]
src = "a"
dst = "b"
transport = { type = "tcp", preset = "\\u0000" }
app = { type = "bulk" }
"""


@functools.cache
def _probed() -> dict[str, list[str]]:
    try:
        _core.check(_PROBE, "<registry probe>")
    except _core.ScenarioError as e:
        errors = e.args[1]
    else:  # pragma: no cover - the probe is invalid by construction
        raise RuntimeError("the registry probe scenario unexpectedly validated")
    by_path = {err["path"]: err["message"] for err in errors}
    out = {}
    for name, (path, _) in _PROBED.items():
        message = by_path.get(path)
        if message is None or "allowed" not in message:
            raise RuntimeError(f"the validator no longer reports the allowed {name} at {path} (got {message!r})")
        # the names are the quoted words after "allowed ...:"
        out[name] = re.findall(r'"([^"]+)"', message.split(":", 1)[1])
    return out


def names(kind: str) -> list[str]:
    """The names of one list: ``presets``, ``variants``, ``losses``, ``apps``, ``schemes``,
    ``studies``, ``queues``, ``phys`` or ``tcp_presets``."""
    if kind in _CONSTANTS:
        return list(_core.registries()[kind])
    if kind in _PROBED:
        return _probed()[kind]
    if kind == "studies":
        from .studies import available

        return list(available())
    raise KeyError(f"unknown list {kind!r} (lists: {', '.join(LISTS)})")


def registries() -> dict[str, list[str]]:
    """Every list, by name."""
    return {k: names(k) for k in LISTS}
