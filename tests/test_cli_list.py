"""``airtcp list`` (from the core's registries), subcommand descriptions, shell completion."""

import shutil
import subprocess
import sys

import pytest

from airtcp import _core
from airtcp.cli import build_parser
from airtcp.registry import LISTS, names, registries

AIRTCP = [sys.executable, "-m", "airtcp.cli"]


def cli(*args):
    return subprocess.run([*AIRTCP, *args], capture_output=True, text=True)


def _scenario(**fields) -> str:
    """A small valid scenario with one value replaced, for checking that listed names validate."""
    loss = fields.get("loss", "bernoulli")
    loss_extra = {
        "bernoulli": ", p = 0.1",
        "ber": ", ber = 1e-6",
        "gilbert_elliott": ", p_gb = 0.01, p_bg = 0.5",
    }.get(loss, "")
    return f"""
name = "t"
[simulation]
duration = "1s"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[links]]
a = "a"
b = "b"
rate = "1Mbps"
delay = "1ms"
loss = {{ type = "{loss}"{loss_extra} }}
[[flows]]
src = "a"
dst = "b"
transport = {{ type = "tcp", variant = "{fields.get("variant", "newreno")}" }}
app = {{ type = "bulk" }}
"""


def test_lists_come_from_the_core():
    assert names("variants") == list(_core.registries()["variants"])
    assert names("schemes") == list(_core.registries()["schemes"])
    r = registries()
    assert set(r) == set(LISTS) and all(r.values())
    assert {"bernoulli", "gilbert_elliott"} <= set(r["losses"]) and {"cbr", "bulk"} <= set(r["apps"])
    assert "ns2-wavelan" in r["presets"] and "foundation" in r["studies"]


@pytest.mark.parametrize("variant", names("variants"))
def test_every_listed_variant_validates(variant):
    _core.check(_scenario(variant=variant))


@pytest.mark.parametrize("loss", ["none", "bernoulli", "ber", "gilbert_elliott"])
def test_listed_losses_validate(loss):
    assert loss in names("losses")
    _core.check(_scenario(loss=loss))


def test_list_command():
    p = cli("list", "variants")
    assert p.returncode == 0 and p.stdout.split() == names("variants")
    p = cli("list")
    assert p.returncode == 0 and all(k in p.stdout for k in LISTS) and "[wireless] preset" in p.stdout
    p = cli("list", "nonsense")
    assert p.returncode == 2 and "invalid choice" in p.stderr


def _subparsers(parser):
    import argparse

    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            return a.choices
    return {}


def test_every_subcommand_has_a_description_and_help_has_no_double_percent():
    parser = build_parser()
    for name, sub in _subparsers(parser).items():
        assert sub.description, f"airtcp {name} has no description"
        assert "%%" not in sub.format_help(), name
        for nested_name, nested in _subparsers(sub).items():
            assert nested.description, f"airtcp {name} {nested_name} has no description"
    assert "%%" not in parser.format_help()


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completion_script_completes_subcommands_and_lists(tmp_path):
    p = cli("completion", "bash")
    assert p.returncode == 0 and "complete -o filenames -F _airtcp airtcp" in p.stdout
    script = tmp_path / "c.sh"
    script.write_text(p.stdout)
    probe = (
        f"source {script}; COMP_WORDS=(airtcp li); COMP_CWORD=1; _airtcp; echo ${{COMPREPLY[@]}}; "
        "COMP_WORDS=(airtcp list va); COMP_CWORD=2; _airtcp; echo ${COMPREPLY[@]}; "
        "COMP_WORDS=(airtcp sweep x.toml --na); COMP_CWORD=3; _airtcp; echo ${COMPREPLY[@]}"
    )
    out = subprocess.run(["bash", "-c", probe], capture_output=True, text=True).stdout.splitlines()
    assert out == ["list", "variants", "--name"], out
