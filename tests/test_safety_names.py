"""Names from scenarios never become paths outside the output folder, and text from scenarios is
escaped in Markdown reports (it is already escaped in HTML)."""

import re
import subprocess
import sys

import pytest

AIRTCP = [sys.executable, "-m", "airtcp.cli"]

SCENARIO = """
name = {name!r}
[simulation]
duration = "1s"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[links]]
a = "a"
b = "b"
rate = "10Mbps"
delay = "5ms"
[[flows]]
name = "f"
src = "a"
dst = "b"
app = {{ type = "cbr", rate = "1Mbps" }}
"""


@pytest.mark.parametrize("name", ["..", "../../escape", "/abs/path", ".hidden", "<img src=x onerror=alert(1)>"])
def test_sweep_out_stays_inside_its_folder_and_reports_are_escaped(tmp_path, name):
    work = tmp_path / "work"
    work.mkdir()
    scenario = work / "s.toml"
    scenario.write_text(SCENARIO.format(name=name).replace("'", '"'))
    p = subprocess.run(
        [*AIRTCP, "sweep", str(scenario), "--param", "links.a-b.delay=1ms,2ms", "--no-store", "--out", "out"],
        capture_output=True,
        text=True,
        cwd=work,
    )
    assert p.returncode == 0, p.stderr
    written = {q.relative_to(work) for q in work.rglob("*") if q.is_file()}
    assert all(str(q).startswith("out/") or str(q) == "s.toml" for q in written), written
    assert not any(q.name.startswith(".") for q in (work / "out").iterdir())
    assert sorted(q.name for q in tmp_path.iterdir()) == ["work"]  # nothing written beside work/
    for page in (work / "out").rglob("*.md"):
        text = page.read_text()
        assert not re.search(r"(?<!\\)<img", text), f"{page}: raw HTML from a scenario name"
    for page in (work / "out").rglob("*.html"):
        assert "<img src=x" not in page.read_text()
