"""docs/tutorial.ipynb runs from top to bottom without an error (executed with nbclient, as a
newcomer would run it from docs/), and is kept without outputs in the repository."""

import importlib.util
from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "tutorial.ipynb"
MISSING = [m for m in ("nbclient", "nbformat", "ipykernel") if importlib.util.find_spec(m) is None]


@pytest.mark.skipif(bool(MISSING), reason=f"{', '.join(MISSING)} not installed (pip install -e '.[dev]')")
def test_tutorial_notebook_runs(tmp_path):
    import nbclient
    import nbformat

    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), "commit the notebook without outputs"
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}}
    )
    client.execute()  # raises CellExecutionError with the cell and traceback on any error
    images = sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert images == 3  # the time-sequence plot and two sweep plots
    html = [
        o["data"]["text/html"]
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
        if "text/html" in o.get("data", {})
    ]
    assert any("SweepResult hotspot" in h and "Mb/s" in h for h in html)
