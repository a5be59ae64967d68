"""Shell completion: ``airtcp completion bash`` prints a bash script generated from the argument
parser itself (subcommands, their options and choices), so it cannot go stale. Positional
arguments complete list names after ``list``, study names after ``reproduce``, and files
elsewhere."""

from __future__ import annotations

import argparse


def _subparsers(p: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            return dict(a.choices)
    return {}


def _options(p: argparse.ArgumentParser) -> list[str]:
    return sorted(o for a in p._actions for o in a.option_strings if o.startswith("--"))


def bash_script(parser: argparse.ArgumentParser) -> str:
    """The completion script for ``parser`` (the ``airtcp`` parser)."""
    from .registry import LISTS
    from .studies import available

    cases = []
    for name, sub in _subparsers(parser).items():
        words = _options(sub)
        nested = _subparsers(sub)
        if nested:
            words = [*nested, *words]
        cases.append(f'        {name}) words="{" ".join(words)}" ;;')
    return (
        '# bash completion for airtcp: eval "$(airtcp completion bash)"\n'
        "_airtcp() {\n"
        '    local cur="${COMP_WORDS[COMP_CWORD]}" cmd="${COMP_WORDS[1]}" words=""\n'
        '    if [ "$COMP_CWORD" -eq 1 ]; then\n'
        f'        COMPREPLY=($(compgen -W "{" ".join(_subparsers(parser))} --help --version" -- "$cur"))\n'
        "        return\n"
        "    fi\n"
        '    case "$cmd" in\n' + "\n".join(cases) + "\n    esac\n"
        '    if [[ "$cur" == -* ]]; then\n'
        '        COMPREPLY=($(compgen -W "$words" -- "$cur"))\n'
        '    elif [ "$cmd" = list ]; then\n'
        f'        COMPREPLY=($(compgen -W "{" ".join(LISTS)}" -- "$cur"))\n'
        '    elif [ "$cmd" = reproduce ]; then\n'
        f'        COMPREPLY=($(compgen -W "all {" ".join(available())}" -- "$cur"))\n'
        '    elif [ "$cmd" = store ] && [ "$COMP_CWORD" -eq 2 ]; then\n'
        '        COMPREPLY=($(compgen -W "$words" -- "$cur"))\n'
        "    else\n"
        '        COMPREPLY=($(compgen -f -- "$cur"))\n'
        "    fi\n"
        "}\n"
        "complete -o filenames -F _airtcp airtcp\n"
    )
