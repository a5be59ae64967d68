"""Study packages: discovery, and their published.toml / Markdown files loaded and validated."""

import shutil
from importlib import import_module
from pathlib import Path

import pytest

from airtcp import studies
from airtcp.studies import StudyError, Tolerance, read_study_files
from airtcp.studies.framework import ByMode
from airtcp.studies.package import EXPLANATIONS, PUBLISHED

STUDIES = Path(studies.__file__).parent


def test_studies_are_the_packages():
    names = studies.available()
    assert {"afrakhteh2005", "foundation"} <= set(names) and names == sorted(names)
    for n in names:
        assert (STUDIES / n / "__init__.py").is_file()
    # The framework's own modules are not studies.
    assert "framework" not in names and "package" not in names


@pytest.mark.parametrize("name", studies.available())
def test_every_study_package_loads_and_validates(name):
    s = studies.load(name)
    assert s.name == name and s.title and s.source and s.summary and s.notes
    assert s.check() == []
    assert (STUDIES / name / PUBLISHED).is_file()
    # What the package's files hold, read again directly, is what the study holds.
    exp = import_module(f"airtcp.studies.{name}.experiments")
    files = read_study_files(
        STUDIES / name, exp.EXPERIMENTS, getattr(exp, "DERIVED", None), getattr(exp, "FORMULAS", None)
    )
    assert [p.id for p in files.published] == [p.id for p in s.published]
    assert files.notes == (STUDIES / name / "notes.md").read_text()


def test_published_toml_gives_values_ranges_formulas_tolerances_by_mode_and_explanations():
    a = {p.id: p for p in studies.load("afrakhteh2005").published}
    assert a["e1-throughput-6"].value == (200, 230)
    assert a["e1-throughput-1"].tolerance == ByMode(quick=Tolerance(rel=0.08), full=Tolerance(rel=0.05))
    assert a["e4-vegas-best-3"].kind == "finding" and a["e4-vegas-best-3"].derived.text == "vegas / best other - 1"
    assert a["e4-vegas-best-3"].derived.fn({"target": 2.0, "o0": 1.0, "o1": 1.6}) == pytest.approx(0.25)
    assert a["e3-rts-cost-1"].derived.text == "relative change"
    # Shared explanations: one section of explanations.md for many values.
    assert a["e10-onset-2"].known_difference == a["e10-loss-4-10"].known_difference != ""
    assert a["e1-throughput-1"].known_difference == ""
    # Foundation: values computed by the analytical models at their points, exactly.
    f = {p.id: p for p in studies.load("foundation").published}
    fx = import_module("airtcp.studies.foundation.experiments")
    assert f["droptail-loss-1.25"].value == fx.loss_droptail(1.25)
    assert f["red-avg-1.1"].value == fx.red_balance(1.1)
    assert f["ge-loss-0.05-0.1"].value == 0.05 / (0.05 + 0.1)
    assert f["ber-1500"].value == fx.ber_loss_pct(1500)


def _foundation_copy(tmp_path: Path) -> Path:
    for name in ("published.toml", "summary.md", "notes.md"):
        shutil.copy(STUDIES / "foundation" / name, tmp_path / name)
    return tmp_path


def _read(folder: Path):
    exp = import_module("airtcp.studies.foundation.experiments")
    return read_study_files(folder, exp.EXPERIMENTS, formulas=exp.FORMULAS)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def test_a_broken_published_toml_names_the_file_and_the_key_of_every_mistake(tmp_path):
    folder = _foundation_copy(tmp_path)
    toml = folder / PUBLISHED
    # One entry with many mistakes, others with one each.
    _edit(
        toml,
        'tolerance = { abs = 0.5 }\n\n[published."droptail-util-0.8"]',
        'tolerance = { rell = 0.5 }\nkind = "claim"\n\n[published."droptail-util-0.8"]',
    )
    _edit(toml, 'experiment = "droptail"\nmetric = "utilization"', 'experiment = "droptail"\nmetric = "utilisation"')
    _edit(toml, 'value = { fn = "red_balance", rho = 1.05 }', 'value = { fn = "red_balanse", rho = 1.05 }')
    _edit(toml, "at = { p_gb = 0.01, p_bg = 0.1 }", "at = { p_gb = 0.01, pbg = 0.1 }")
    _edit(toml, 'experiment = "ber"', 'experiment = "bers"')
    _edit(
        toml,
        "tolerance = { abs = 0.2 }",
        'tolerance = { quick = { abs = 0.4 } }\nexplained = "quirk"\nderived = { fn = "ratio", numerator = {} }',
    )
    with pytest.raises(StudyError) as info:
        _read(folder)
    problems = info.value.problems
    text = "\n".join(problems)
    f = str(toml)
    expected = [
        f'{f}: published."droptail-loss-0.8".tolerance.rell: unknown key (allowed: abs, rel)',
        f"{f}: published.\"droptail-loss-0.8\".kind: 'claim': allowed: 'value', 'finding'",
        f"{f}: published.\"droptail-util-0.8\".metric: experiment droptail has no metric 'utilisation' "
        "(metrics: loss_pct, utilization)",
        f"{f}: published.\"red-avg-1.05\".value.fn: 'red_balanse': allowed: ber_loss_pct, ge_stationary_loss, "
        "loss_droptail, red_balance",
        f'{f}: published."ge-loss-0.01-0.1".at.pbg: not a parameter of gilbert (parameters: p_bg, p_gb)',
        f"{f}: published.ber-100.experiment: unknown experiment 'bers' (experiments: ber, droptail, gilbert, red)",
        f'{f}: published."red-drop-1.05".tolerance.full: missing (a tolerance by mode gives both quick and full)',
        f"{f}: published.\"red-drop-1.05\".explained: 'quirk' is not a section of {EXPLANATIONS} (sections: none)",
        f'{f}: published."red-drop-1.05": give either at (a grid point) or derived (a quantity of several '
        "points), not both",
        f'{f}: published."red-drop-1.05".derived.denominator: missing (a grid point for ratio)',
    ]
    for line in expected:
        assert line in problems, f"{line}\nnot in:\n{text}"
    assert len(problems) == len(expected), text


def test_a_published_toml_that_is_not_toml_or_misses_its_study_table(tmp_path):
    folder = _foundation_copy(tmp_path)
    toml = folder / PUBLISHED
    _edit(toml, 'title = "Foundation', 'title "Foundation')
    with pytest.raises(StudyError, match=rf"{toml}: not valid TOML: Expected '=' after a key .*\(at line 6"):
        _read(folder)
    toml.write_text('[published.x]\nquantity = "q"\nreference = "r"\nvalue = [2, 1]\nexperiment = "ber"\n')
    with pytest.raises(StudyError) as info:
        _read(folder)
    assert info.value.problems == [
        f"{toml}: study: missing table [study] with title and source",
        f"{toml}: published.x.metric: missing",
        f"{toml}: published.x.value: a range is [low, high], got [2, 1]",
    ]


def test_explanations_are_markdown_sections_each_used(tmp_path):
    folder = _foundation_copy(tmp_path)
    _edit(folder / PUBLISHED, "tolerance = { abs = 0.2 }", 'tolerance = { abs = 0.2 }\nexplained = "quirk"')
    (folder / EXPLANATIONS).write_text(
        "# Why\n\nIntroduction, not used.\n\n## quirk\n\nThe source's simulator\ncounts twice.\n\n"
        "## unused\n\nNobody.\n"
    )
    with pytest.raises(StudyError) as info:
        _read(folder)
    assert info.value.problems == [f"{folder / EXPLANATIONS}: section 'unused' is not named by any published value"]
    (folder / EXPLANATIONS).write_text("## quirk\n\nThe source's simulator\ncounts   twice.\n")
    p = next(p for p in _read(folder).published if p.id == "red-drop-1.05")
    assert p.known_difference == "The source's simulator counts twice."
