"""Build scenarios in Python with the same shape as the TOML files.

A :class:`Scenario` is a thin wrapper around the dictionary that a TOML scenario file parses to;
every key documented in ``docs/scenario.md`` can be given, and validation happens in the core, so
Python, the CLI and Rust report identical errors.

>>> import airtcp
>>> sc = airtcp.Scenario(name="two-hosts", duration="2s", seed=7)
>>> sc.add_nodes("a", "b").add_link("a", "b", rate="10Mbps", delay="5ms")  # doctest: +ELLIPSIS
<airtcp.Scenario 'two-hosts': 2 nodes, 1 links, 0 flows>
>>> _ = sc.add_flow("a", "b", app={"type": "cbr", "rate": "1Mbps"}, name="f")
>>> sc.set("links.a-b.loss", {"type": "bernoulli", "p": 0.1})
>>> sc.get("links.a-b.loss.p")
0.1
>>> result = sc.run()
>>> int(result.flows.loc[0, "tx_packets"])
250
"""

from __future__ import annotations

import copy
import datetime
import tomllib
from pathlib import Path
from typing import Any

import tomli_w

from . import _core
from .arguments import check_path, check_seed, check_text, shown, time_text, toml_value
from .errors import ArgumentError, FieldError, ScenarioError

_LIST_SECTIONS = ("nodes", "links", "flows", "schemes")


def _default_name(section: str, index: int, item: dict) -> str | None:
    """The name the core gives an entry that has no explicit ``name``."""
    if "name" in item:
        return str(item["name"])
    if section == "links" and "a" in item and "b" in item:
        return f"{item['a']}-{item['b']}"
    if section == "flows":
        return f"flow{index}"
    if section == "schemes" and "type" in item and "node" in item:
        return f"{item['type']}@{item['node']}"
    return None


def _clean(value: Any) -> Any:
    """Drops ``None`` values (TOML has no null) recursively."""
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def to_scenario_error(exc: Exception, source: str) -> ScenarioError:
    """Converts the core's validation exception into :class:`ScenarioError`."""
    _message, errors = exc.args
    return ScenarioError(source, [FieldError(e["path"], e.get("value"), e["message"]) for e in errors])


_TOO_DEEP = "the scenario is nested too deeply (tables or arrays inside each other hundreds of levels deep)"


def _time_arg(name: str, value: Any) -> Any:
    """A time argument: a string with a unit, or a ``datetime.timedelta``."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, datetime.timedelta):
        return time_text(value)
    raise ArgumentError(f'{name} = {shown(value)}: expected a time such as "30s" or a datetime.timedelta')


def _check_dotted(path: Any) -> None:
    """A dotted field path: a non-empty string without empty parts."""
    if not isinstance(path, str) or not path or any(part == "" for part in path.split(".")):
        raise ArgumentError(f'path = {shown(path)}: expected a dotted field path such as "links.bottleneck.delay"')


class Scenario:
    """A scenario under construction: nodes, links, flows and settings.

    ``duration``, ``seed`` and ``warmup`` fill the ``[simulation]`` table. ``base_dir`` is where
    relative trace files are looked up (the scenario file's folder when loaded from a file).
    """

    def __init__(
        self,
        name: str | None = None,
        duration: str | None = None,
        seed: int | None = None,
        warmup: str | None = None,
        *,
        base_dir: str | Path | None = None,
        source: str = "<scenario>",
    ):
        self.data: dict[str, Any] = {}
        if name is not None:
            self.data["name"] = check_text("name", name)
        sim = _clean(
            {
                "duration": _time_arg("duration", duration),
                "seed": None if seed is None else check_seed("seed", seed),
                "warmup": _time_arg("warmup", warmup),
            }
        )
        if sim:
            self.data["simulation"] = sim
        self.base_dir = check_path("base_dir", base_dir) if base_dir is not None else None
        self.source = check_text("source", source)

    # -- loading ---------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: dict, *, base_dir: str | Path | None = None, source: str = "<dict>") -> Scenario:
        """A scenario from a dictionary shaped like the TOML file (deep-copied)."""
        if not isinstance(data, dict):
            raise ArgumentError(f"data = {shown(data)}: expected a dict shaped like the TOML file")
        sc = cls(base_dir=base_dir, source=source)
        try:
            sc.data = copy.deepcopy(data)
        except RecursionError:
            raise ScenarioError(source, [FieldError("", None, _TOO_DEEP)]) from None
        return sc

    @classmethod
    def from_toml(cls, path: str | Path) -> Scenario:
        """Loads a scenario file; syntax errors raise :class:`ScenarioError` naming the file, with
        the line and column in it. The file is read as every airtcp tool reads it (the same code
        as ``airtcp-sim``): UTF-8, an optional UTF-8 byte-order mark skipped, any other encoding
        refused with a message saying how to fix it, at most 64 MiB."""
        path = check_path("path", path)
        try:
            text = _core.read_scenario(str(path))
        except _core.ScenarioError as e:
            raise to_scenario_error(e, str(path)) from None
        return cls.from_toml_string(text, base_dir=path.parent, source=str(path))

    @classmethod
    def from_toml_string(cls, text: str, *, base_dir: str | Path | None = None, source: str = "<string>") -> Scenario:
        """A scenario from TOML text (a leading byte-order mark is skipped, as in files). Syntax is
        checked by the simulator's own parser, so errors give the line and column in ``text``."""
        check_text("text", text, empty=True)
        source = check_text("source", source)
        text = text.removeprefix("\ufeff")
        try:
            _core.check_syntax(text, source)
        except _core.ScenarioError as e:
            raise to_scenario_error(e, source) from None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise ScenarioError(source, [FieldError("", None, f"not valid TOML: {e}")]) from None
        except RecursionError:
            raise ScenarioError(source, [FieldError("", None, _TOO_DEEP)]) from None
        return cls.from_dict(data, base_dir=base_dir, source=source)

    # -- building --------------------------------------------------------------------------
    def add_node(self, name: str, **fields: Any) -> Scenario:
        """Adds a node (extra fields, e.g. a position, are passed through)."""
        self.data.setdefault("nodes", []).append(_clean({"name": name, **fields}))
        return self

    def add_nodes(self, *names: str) -> Scenario:
        """Adds several plain nodes."""
        for n in names:
            self.add_node(n)
        return self

    def add_link(self, a: str, b: str, *, rate: str, delay: str, name: str | None = None, **fields: Any) -> Scenario:
        """Adds a full-duplex wired link; ``queue``, ``loss``, ``a_to_b``, ``b_to_a`` as in TOML."""
        entry = _clean({"name": name, "a": a, "b": b, "rate": rate, "delay": delay, **fields})
        self.data.setdefault("links", []).append(entry)
        return self

    def add_flow(
        self,
        src: str,
        dst: str,
        *,
        app: dict,
        name: str | None = None,
        transport: str | dict | None = None,
        start: str | None = None,
        stop: str | None = None,
        **fields: Any,
    ) -> Scenario:
        """Adds a flow from ``src`` to ``dst`` running ``app`` (e.g. ``{"type": "cbr", ...}``)."""
        entry = _clean(
            {
                "name": name,
                "src": src,
                "dst": dst,
                "transport": transport,
                "app": app,
                "start": start,
                "stop": stop,
                **fields,
            }
        )
        self.data.setdefault("flows", []).append(entry)
        return self

    def add_scheme(
        self, type: str, node: str, *, name: str | None = None, iface: str | None = None, **params: Any
    ) -> Scenario:
        """Attaches a scheme (``[[schemes]]``) of ``type`` to ``node``: it sees the packets entering
        and leaving the node (only on ``iface``, a link name or ``"wireless"``, if given) and acts
        on them; ``params`` are the type's own keys (see ``docs/scenario.md``).

        >>> sc = Scenario(duration="5s").add_nodes("a", "b").add_link("a", "b", rate="10Mbps", delay="5ms")
        >>> _ = sc.add_flow("a", "b", app={"type": "bulk"}, transport="tcp", name="f")
        >>> _ = sc.add_scheme("scripted", "a", name="loss", rules=[
        ...     {"at": "send", "packets": "tcp_data", "nth": [10], "action": "drop"}])
        >>> r = sc.run()
        >>> int(r.schemes.loc[0, "dropped"]), int(r.flows.loc[0, "drops_scheme"])
        (1, 1)
        """
        entry = _clean({"type": type, "name": name, "node": node, "iface": iface, **params})
        self.data.setdefault("schemes", []).append(entry)
        return self

    def section(self, name: str) -> dict:
        """The table ``name`` (e.g. ``"routing"``, ``"outputs"``), created empty if absent."""
        return self.data.setdefault(name, {})

    # -- dotted paths (used by sweeps) -------------------------------------------------------
    def _walk(self, path: str, create: bool) -> tuple[Any, str]:
        """Follows ``path`` to the table holding its last key; entries of lists are matched by
        name (names may contain dots: the longest matching name wins) or by index."""
        parts = path.split(".")
        node: Any = self.data
        i = 0
        while i < len(parts) - 1:
            key = parts[i]
            if not isinstance(node, dict):
                raise KeyError(f"{path}: {parts[i - 1]!r} is a value, not a table")
            if key not in node:
                if not create:
                    raise KeyError(f"{path}: {key!r} is not set")
                node[key] = {}
            child = node[key]
            if not isinstance(child, list):
                node, i = child, i + 1
                continue
            for j in range(len(parts) - 1, i + 1, -1):
                item = self._find(child, key, ".".join(parts[i + 1 : j]))
                if item is not None:
                    node, i = item, j
                    break
            else:
                raise KeyError(f"{path}: no entry of {key!r} is named {parts[i + 1]!r}")
        return node, parts[-1]

    @staticmethod
    def _find(items: list, section: str, key: str) -> dict | None:
        for idx, item in enumerate(items):
            if isinstance(item, dict) and (_default_name(section, idx, item) == key or key == str(idx)):
                return item
        return None

    def set(self, path: str, value: Any, *, create: bool = True) -> None:
        """Sets the value at a dotted path; list entries are addressed by name or index:
        ``"links.bottleneck.loss.p"``, ``"flows.video.app.rate"``, ``"simulation.seed"``.
        Missing intermediate tables are created, unless ``create`` is false (then only the last
        key may be new, and a path through a missing table raises ``KeyError``: what sweeps use,
        so that a mistyped path is an error rather than a new table)."""
        _check_dotted(path)
        value = toml_value(value, path)
        parent, key = self._walk(path, create=create)
        if not isinstance(parent, dict):
            raise KeyError(f"{path}: cannot set a key inside a non-table value")
        parent[key] = value

    def get(self, path: str) -> Any:
        """The value at a dotted path (see :meth:`set`): a value, a table, or a whole list entry
        (``get("flows.dl1")`` and ``get("flows.0")`` return the flow's table; changing it changes
        the scenario)."""
        _check_dotted(path)
        try:
            parent, key = self._walk(path, create=False)
            if not isinstance(parent, dict) or key not in parent:
                raise KeyError(f"{path}: {key!r} is not set")
            return parent[key]
        except KeyError as first:
            # the path may name an entry of a list (the entry is then the table holding a key "")
            try:
                entry, _ = self._walk(path + ".", create=False)
            except KeyError as second:
                if "no entry of" in str(second):
                    raise KeyError(str(second.args[0]).replace(f"{path}.:", f"{path}:", 1)) from None
                raise first from None
            if isinstance(entry, dict):
                return entry
            raise

    def copy(self) -> Scenario:
        """An independent copy."""
        return Scenario.from_dict(self.data, base_dir=self.base_dir, source=self.source)

    # -- output ----------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """A deep copy of the scenario dictionary."""
        return copy.deepcopy(self.data)

    def to_toml(self) -> str:
        """The scenario as TOML text. Values TOML cannot hold directly are converted (numpy
        scalars, ``timedelta``, tuples: see :func:`airtcp.arguments.toml_value`); others raise
        :class:`airtcp.ArgumentError` naming the field."""
        try:
            return tomli_w.dumps(toml_value(_clean(self.data), ""))
        except RecursionError:
            raise ScenarioError(self.source, [FieldError("", None, _TOO_DEEP)]) from None

    def _core_args(self) -> tuple[str, str, str | None]:
        base = str(self.base_dir) if self.base_dir is not None else None
        return self.to_toml(), self.source, base

    def validate(self) -> dict:
        """Validates the scenario; returns the resolved configuration or raises
        :class:`ScenarioError` listing every problem."""
        try:
            return _core.check(*self._core_args())
        except _core.ScenarioError as e:
            raise to_scenario_error(e, self.source) from None

    def run(self, seed: int | None = None, replication: int = 0, progress: Any = False):
        """Runs the scenario (see :func:`airtcp.run`)."""
        from .run import run

        return run(self, seed=seed, replication=replication, progress=progress)

    def _repr_html_(self) -> str:
        from .notebook import scenario_html

        return scenario_html(self)

    def __repr__(self) -> str:
        shown = [s for s in _LIST_SECTIONS if s != "schemes" or self.data.get(s)]
        counts = ", ".join(f"{len(self.data.get(s, []))} {s}" for s in shown)
        return f"<airtcp.Scenario {self.data.get('name', self.source)!r}: {counts}>"
