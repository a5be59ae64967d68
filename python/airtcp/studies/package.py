"""A study package's files: the published values as data, the prose as Markdown.

A study is a package ``airtcp/studies/<name>/``: its ``__init__.py`` builds ``STUDY`` with
:func:`package_study` from the experiments and figures written in code and these files beside it:

- ``published.toml``: ``[study]`` (``title``, ``source``) and one ``[published."<id>"]`` table per
  number the source states (what it is, where it is stated, the value - a number, a range, or an
  analytical model of the package evaluated at given parameters -, where we measure it: a grid point
  or a derived quantity of several, the tolerance, whether it is a qualitative finding, and the
  explanation when we knowingly do not reproduce it). Schema: ``docs/experiments.md`` ("Writing a
  study").
- ``summary.md`` (shown at the top of the study's report page) and ``notes.md`` (at the bottom):
  paragraphs of prose, optional.
- ``explanations.md``: one ``## <name>`` section per reason a value is not reproduced; an entry of
  ``published.toml`` names it with ``explained = "<name>"``.

Every mistake in these files is reported at once, each with the file and the key path.
"""

from __future__ import annotations

import dataclasses
import importlib.resources
import inspect
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .framework import (
    KINDS,
    ByMode,
    Derived,
    Drawing,
    Experiment,
    Figure,
    Published,
    Study,
    StudyError,
    Tolerance,
    best,
    difference,
    ratio,
    relative_change,
    worst,
)

PUBLISHED = "published.toml"
SUMMARY = "summary.md"
NOTES = "notes.md"
EXPLANATIONS = "explanations.md"

#: Derived quantities every study may name in ``derived = {fn = "...", ...}``.
BUILTIN_DERIVED: dict[str, Callable[..., Derived]] = {
    "ratio": ratio,
    "relative_change": relative_change,
    "difference": difference,
    "best": best,
    "worst": worst,
}

_ENTRY_KEYS = (
    "quantity",
    "reference",
    "value",
    "unit",
    "experiment",
    "metric",
    "at",
    "derived",
    "tolerance",
    "kind",
    "explained",
    "note",
)
_REQUIRED = ("quantity", "reference", "value", "experiment", "metric")
_TEXT_KEYS = ("quantity", "reference", "unit", "note")
_STUDY_KEYS = ("title", "source")
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


@dataclass
class StudyFiles:
    """What a study package's files hold (see the module documentation)."""

    title: str
    source: str
    summary: str
    notes: str
    published: list[Published]


def package_study(
    package: str,
    experiments: Sequence[Experiment],
    figures: Sequence[Figure] = (),
    derived: Mapping[str, Callable[..., Derived]] | None = None,
    formulas: Mapping[str, Callable[..., float]] | None = None,
    drawings: Sequence[Drawing] = (),
) -> Study:
    """The :class:`Study` of the package ``package`` (pass its ``__name__``; the study is named
    after its last component): ``experiments`` and ``figures`` from code, the rest from the files
    beside it. ``derived`` names the study's own derived-quantity builders (functions of grid points
    returning a :class:`Derived`), in addition to :data:`BUILTIN_DERIVED`; ``formulas`` names the
    functions a published value may be computed by (``value = {fn = "...", ...}``: an analytical
    model's value at given parameters); ``drawings`` are the figures it draws itself."""
    folder = importlib.resources.files(package)
    files = read_study_files(Path(str(folder)), experiments, derived, formulas)
    return Study(
        name=package.rsplit(".", 1)[-1],
        title=files.title,
        source=files.source,
        summary=files.summary,
        experiments=list(experiments),
        published=files.published,
        figures=list(figures),
        notes=files.notes,
        drawings=list(drawings),
    )


def read_study_files(
    folder: Path,
    experiments: Sequence[Experiment],
    derived: Mapping[str, Callable[..., Derived]] | None = None,
    formulas: Mapping[str, Callable[..., float]] | None = None,
) -> StudyFiles:
    """Reads and validates the files of a study package in ``folder``; raises :class:`StudyError`
    listing every problem (``<file>: <key path>: <what is wrong>``)."""
    problems: list[str] = []
    explanations = _sections(folder / EXPLANATIONS, problems)
    path = folder / PUBLISHED
    doc = _toml(path, problems)
    builders = {**BUILTIN_DERIVED, **(derived or {})}
    reader = _Reader(str(path), experiments, builders, formulas or {}, explanations, problems)
    title, source, published = reader.document(doc) if doc is not None else ("", "", [])
    if doc is not None:
        for name in explanations:
            if name not in reader.used:
                problems.append(f"{folder / EXPLANATIONS}: section {name!r} is not named by any published value")
    if problems:
        raise StudyError(problems)
    return StudyFiles(title, source, _text(folder / SUMMARY), _text(folder / NOTES), published)


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def _toml(path: Path, problems: list[str]) -> dict[str, Any] | None:
    if not path.is_file():
        problems.append(f"{path}: missing (every study package has a {PUBLISHED})")
        return None
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        problems.append(f"{path}: not valid TOML: {e}")
        return None


def _sections(path: Path, problems: list[str]) -> dict[str, str]:
    """The ``## <name>`` sections of a Markdown file, each as one line of text (whitespace
    collapsed: an explanation is one paragraph, shown in a table cell). Text before the first
    section (a title, an introduction) is not used."""
    if not path.is_file():
        return {}
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("## "):
            name = line[3:].strip()
            if name in sections:
                problems.append(f"{path}:{number}: section {name!r} appears twice")
            current = sections.setdefault(name, [])
        elif current is not None:
            current.append(line)
    out = {name: " ".join(" ".join(lines).split()) for name, lines in sections.items()}
    for name, text in out.items():
        if not text:
            problems.append(f"{path}: section {name!r} is empty")
    return out


def _key(path: str, key: str) -> str:
    """``path.key`` with ``key`` quoted as TOML needs it."""
    shown = key if _BARE_KEY.match(key) else '"' + key.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"{path}.{shown}" if path else shown


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _names(items: Iterable[str]) -> str:
    return ", ".join(sorted(items)) or "none"


class _Reader:
    """Validates a parsed ``published.toml``, collecting every problem."""

    def __init__(
        self,
        file: str,
        experiments: Sequence[Experiment],
        builders: Mapping[str, Callable[..., Derived]],
        formulas: Mapping[str, Callable[..., float]],
        explanations: Mapping[str, str],
        problems: list[str],
    ):
        self.file = file
        self.experiments = {e.name: e for e in experiments}
        self.builders = builders
        self.formulas = formulas
        self.explanations = explanations
        self.problems = problems
        self.used: set[str] = set()

    def bad(self, path: str, message: str) -> None:
        self.problems.append(f"{self.file}: {path}: {message}")

    def unknown_keys(self, table: Mapping[str, Any], path: str, allowed: Sequence[str]) -> None:
        for k in table:
            if k not in allowed:
                self.bad(_key(path, k), f"unknown key (allowed: {', '.join(allowed)})")

    def document(self, doc: Mapping[str, Any]) -> tuple[str, str, list[Published]]:
        self.unknown_keys(doc, "", ("study", "published"))
        title = source = ""
        study = doc.get("study")
        if not isinstance(study, dict):
            self.bad("study", "missing table [study] with title and source")
        else:
            self.unknown_keys(study, "study", _STUDY_KEYS)
            title = self.text(study, "study", "title", required=True)
            source = self.text(study, "study", "source", required=True)
        entries = doc.get("published", {})
        if not isinstance(entries, dict):
            self.bad("published", 'expected tables [published."<id>"]')
            return title, source, []
        out = []
        for pid, entry in entries.items():
            p = self.entry(pid, entry, _key("published", pid))
            if p is not None:
                out.append(p)
        return title, source, out

    def text(self, table: Mapping[str, Any], path: str, key: str, required: bool = False) -> str:
        v = table.get(key)
        if v is None:
            if required:
                self.bad(_key(path, key), "missing")
            return ""
        if not isinstance(v, str):
            self.bad(_key(path, key), f"expected a string, got {v!r}")
            return ""
        return v

    def entry(self, pid: str, t: Any, path: str) -> Published | None:
        if not isinstance(t, dict):
            self.bad(path, f"expected a table, got {t!r}")
            return None
        before = len(self.problems)
        self.unknown_keys(t, path, _ENTRY_KEYS)
        for k in _REQUIRED:
            if k not in t:
                self.bad(_key(path, k), "missing")
        texts = {k: self.text(t, path, k) for k in _TEXT_KEYS}
        value = self.value(t.get("value"), _key(path, "value")) if "value" in t else None
        exp = self.experiment(t, path)
        metric = self.text(t, path, "metric")
        if exp is not None and metric and metric not in exp.metrics:
            self.bad(
                _key(path, "metric"), f"experiment {exp.name} has no metric {metric!r} (metrics: {_names(exp.metrics)})"
            )
        if "at" in t and "derived" in t:
            self.bad(path, "give either at (a grid point) or derived (a quantity of several points), not both")
        at = self.point(t["at"], _key(path, "at"), exp) if "at" in t else {}
        derived = self.derived(t["derived"], _key(path, "derived"), exp) if "derived" in t else None
        tolerance = self.tolerance(t["tolerance"], _key(path, "tolerance")) if "tolerance" in t else Tolerance()
        kind = t.get("kind", "value")
        if kind not in KINDS:
            self.bad(_key(path, "kind"), f"{kind!r}: allowed: {', '.join(repr(k) for k in KINDS)}")
        known = ""
        if "explained" in t:
            name = t["explained"]
            if not isinstance(name, str) or name not in self.explanations:
                self.bad(
                    _key(path, "explained"),
                    f"{name!r} is not a section of {EXPLANATIONS} (sections: {_names(self.explanations)})",
                )
            else:
                self.used.add(name)
                known = self.explanations[name]
        if len(self.problems) > before or value is None or exp is None:
            return None
        return Published(
            id=pid,
            quantity=texts["quantity"],
            reference=texts["reference"],
            value=value,
            experiment=exp.name,
            metric=metric,
            at=at or {},
            derived=derived,
            tolerance=tolerance,
            unit=texts["unit"],
            note=texts["note"],
            kind=kind,
            known_difference=known,
        )

    def experiment(self, t: Mapping[str, Any], path: str) -> Experiment | None:
        name = t.get("experiment")
        if name is None:
            return None
        exp = self.experiments.get(name) if isinstance(name, str) else None
        if exp is None:
            self.bad(_key(path, "experiment"), f"unknown experiment {name!r} (experiments: {_names(self.experiments)})")
        return exp

    def value(self, v: Any, path: str) -> float | tuple[float, float] | None:
        if _is_number(v):
            return v
        if isinstance(v, list) and len(v) == 2 and all(_is_number(x) for x in v):
            if v[0] > v[1]:
                self.bad(path, f"a range is [low, high], got {v!r}")
                return None
            return (v[0], v[1])
        if isinstance(v, dict) and "fn" in v:
            return self.formula(v, path)
        self.bad(path, f"expected a number, a range [low, high] (inf and -inf allowed) or {{fn = ...}}, got {v!r}")
        return None

    def formula(self, v: Mapping[str, Any], path: str) -> float | None:
        """A value computed by one of the study's formulas at the given arguments."""
        fn = v["fn"]
        formula = self.formulas.get(fn) if isinstance(fn, str) else None
        if formula is None:
            self.bad(_key(path, "fn"), f"{fn!r}: allowed: {_names(self.formulas)}")
            return None
        args = {k: x for k, x in v.items() if k != "fn"}
        params = inspect.signature(formula).parameters
        missing = [k for k, p in params.items() if p.default is inspect.Parameter.empty and k not in args]
        unknown = [k for k in args if k not in params]
        for k in unknown:
            self.bad(_key(path, k), f"{fn} takes {', '.join(params)}")
        for k in missing:
            self.bad(_key(path, k), f"missing (an argument of {fn})")
        if missing or unknown:
            return None
        try:
            value = formula(**args)
        except Exception as e:  # a formula rejecting its arguments
            self.bad(path, f"{fn}: {type(e).__name__}: {e}")
            return None
        if not _is_number(value):
            self.bad(path, f"{fn} returned {value!r}, not a number")
            return None
        return value

    def point(self, v: Any, path: str, exp: Experiment | None) -> dict[str, Any] | None:
        """A partial grid point: a table of parameter values."""
        if not isinstance(v, dict):
            self.bad(path, f"expected a grid point such as {{hops = 1}}, got {v!r}")
            return None
        for k, x in v.items():
            if exp is not None and k not in exp.params:
                self.bad(_key(path, k), f"not a parameter of {exp.name} (parameters: {_names(exp.params)})")
            elif not isinstance(x, (str, int, float, bool)):
                self.bad(_key(path, k), f"expected a parameter value, got {x!r}")
        return dict(v)

    def derived(self, v: Any, path: str, exp: Experiment | None) -> Derived | None:
        if not isinstance(v, dict):
            self.bad(path, 'expected a table such as {fn = "ratio", numerator = {...}, denominator = {...}}')
            return None
        fn = v.get("fn")
        builder = self.builders.get(fn) if isinstance(fn, str) else None
        if builder is None:
            self.bad(_key(path, "fn"), f"{fn!r}: allowed: {_names(self.builders)}")
            return None
        text = self.text(v, path, "text")
        params = inspect.signature(builder).parameters
        args = {k: x for k, x in v.items() if k not in ("fn", "text")}
        ok = True
        for k in args:
            if k not in params:
                self.bad(_key(path, k), f"{fn} takes {', '.join(params)} (and text)")
                ok = False
        for k, p in params.items():
            if p.default is inspect.Parameter.empty and k not in args:
                self.bad(_key(path, k), f"missing (a grid point for {fn})")
                ok = False
        for k, x in args.items():
            if isinstance(x, list):
                args[k] = [self.point(pt, f"{_key(path, k)}[{i}]", exp) for i, pt in enumerate(x)]
                ok = ok and all(a is not None for a in args[k])
            else:
                args[k] = self.point(x, _key(path, k), exp)
                ok = ok and args[k] is not None
        if not ok:
            return None
        try:
            d = builder(**args)
        except Exception as e:  # a study's builder rejecting its arguments
            self.bad(path, f"{fn}: {type(e).__name__}: {e}")
            return None
        return dataclasses.replace(d, text=text) if text else d

    def tolerance(self, v: Any, path: str) -> Tolerance | ByMode | None:
        if isinstance(v, dict) and ("quick" in v or "full" in v):
            self.unknown_keys(v, path, ("quick", "full"))
            for mode in ("quick", "full"):
                if mode not in v:
                    self.bad(_key(path, mode), "missing (a tolerance by mode gives both quick and full)")
            if "quick" not in v or "full" not in v:
                return None
            quick, full = self.tolerance(v["quick"], _key(path, "quick")), self.tolerance(v["full"], _key(path, "full"))
            return ByMode(quick=quick, full=full)
        if not isinstance(v, dict) or any(isinstance(x, dict) for x in v.values()):
            self.bad(
                path, f"expected {{rel = 0.05}}, {{abs = 0.5}}, both, or {{quick = {{...}}, full = {{...}}}}, got {v!r}"
            )
            return None
        self.unknown_keys(v, path, ("abs", "rel"))
        for k in ("abs", "rel"):
            if k in v and not (_is_number(v[k]) and v[k] >= 0):
                self.bad(_key(path, k), f"expected a number >= 0, got {v[k]!r}")
        return Tolerance(**{k: v[k] for k in ("abs", "rel") if k in v})
