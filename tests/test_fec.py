"""The Ch. 3 analytical FEC model (Subramanian 2008) from Python and from ``airtcp fec-model``."""

import json

import pytest

from airtcp import fec
from airtcp.cli import main
from airtcp.errors import UserError


@pytest.mark.parametrize(
    ("case", "metric", "decimals"),
    [
        ("uniform p=0.5", "goodput_mbps", 2),
        ("uniform p=0.5", "residual_pct", 1),
        ("uniform p=0.5", "pfec_wasted_mbps", 1),
        ("uniform p=0.5", "rfec_wasted_mbps", 2),
        ("uniform p=0.5", "rounds", 2),
        ("uniform p=0.1", "goodput_mbps", 2),
        ("uniform p=0.1", "pfec_wasted_mbps", 2),
        ("uniform p=0.1", "rfec_wasted_mbps", 2),
    ],
)
def test_table_3_2_uniform_analysis_cells(case, metric, decimals):
    rows = {(r["case"], r["metric"]): r for r in fec.table_3_2_rows()}
    row = rows[(case, metric)]
    assert round(row["model"], decimals) == row["published_analysis"]


def test_table_3_2_explained_misses():
    """Uniform p = 0.1: residual 0.53 % and rounds 1.11 do not follow from Eqs. 3.2-3.5 (see
    docs/models/fec.md); the model's residual is ~0 and its rounds 1 + P(L > 3) = 1.13."""
    r = fec.model(0.1)
    assert r["residual"] < 1e-5
    assert round(r["rounds"], 2) == 1.13


def test_on_off_matches_the_text():
    r = fec.model(0.5, channel="on_off")
    assert round(100 * r["residual"], 1) == 3.6
    assert round(100 * r["pfec_wasted_units"] / r["units_sent"]) == 12
    assert round(100 * r["rfec_wasted_units"] / r["units_sent"]) == 10
    same = fec.model(0.5, channel="on_off", q=0.75, r=0.25)
    assert same == r


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"p": 1.0}, "p = 1: must be in [0, 1)"),
        ({"p": 0.1, "n": 0}, "n = 0: must be an integer in [1, 1000]"),
        ({"p": 0.1, "n": 2.5}, "n = 2.5: must be a whole number"),
        ({"p": 0.1, "channel": "gilbert"}, "channel = 'gilbert': allowed channels: uniform, on_off"),
        ({"p": 0.7, "channel": "on_off"}, "p = 0.7: must be in [0, 2/3]"),
        ({"p": 0.5, "channel": "on_off", "q": 0.9, "r": 0.2}, "must equal (q + r) / 2"),
        ({"p": 0.5, "channel": "on_off", "q": 0.9}, "give both or neither"),
        ({"p": 0.5, "q": 0.9, "r": 0.1}, "only for channel"),
        ({"p": 0.1, "pfec_units": 20}, "pfec_units = 20: must be below n = 20"),
        ({"p": 0.1, "pfec_units": -1}, "pfec_units = -1: must be a whole number >= 0"),
        ({"p": 0.1, "rfec_sigmas": -1}, "rfec_sigmas = -1: must be a finite number in [0, 10]"),
        ({"p": 0.1, "capacity_mbps": 0}, "capacity_mbps = 0: must be a positive"),
        ({"p": 0.1, "n": 10**12}, "n = 1000000000000: must be an integer in [1, 1000]"),
    ],
)
def test_bad_arguments_name_the_argument(kwargs, message):
    with pytest.raises(fec.FecModelError) as e:
        fec.model(**kwargs)
    assert message in str(e.value)
    assert isinstance(e.value, UserError) and isinstance(e.value, ValueError)


def test_cli_table_and_json(capsys):
    assert main(["fec-model", "--table", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 15 and {r["case"] for r in rows} == set(fec.TABLE_3_2)
    assert main(["fec-model", "--per", "0.1", "0.5", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert [r["pfec_units"] for r in res] == [3, 12]
    assert main(["fec-model", "--per", "0.3", "--channel", "on_off"]) == 0
    assert "on_off channel" in capsys.readouterr().out


def test_cli_bad_arguments_exit_2(capsys):
    assert main(["fec-model", "--pfec-units", "30"]) == 2
    assert "airtcp: pfec_units = 30: must be below n = 20" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["fec-model", "--per", "1.5"])
    assert e.value.code == 2
    assert "1.5 is outside [0, 1)" in capsys.readouterr().err
