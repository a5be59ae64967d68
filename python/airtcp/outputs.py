"""Output files and folders: checked before any run starts, written atomically.

Folders (a sweep's or a study's results: ``study.json``, ``data/``, figures, pages) are built in
a temporary sibling folder and renamed into place once complete (:func:`atomic_dir`), so an
interrupted write leaves the previous folder whole, never a mix of old and new files.

A mistake in ``--out`` (a missing folder, a directory where a file is meant, a read-only mount)
is reported before the work starts, not after an hour of simulation; and a file is written to a
temporary name in its own folder and renamed over the target only once complete, so a full disk
or a Ctrl-C never leaves a truncated file where a good one was (``os.replace`` is atomic on
POSIX and Windows when both names are on the same file system, which the same folder ensures).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .errors import UserError


class OutputError(UserError, OSError):
    """An output file or folder cannot be written."""


def _probe(folder: Path, what: str) -> None:
    """Creates and removes a temporary file in ``folder``: the only reliable test of writability
    (permissions, read-only mounts, ACLs, a full disk)."""
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=".airtcp-probe-")
    except OSError as e:
        raise OutputError(f"{what}: cannot write in {folder}: {e.strerror or e}") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(name)


def check_output_file(path: str | os.PathLike, what: str, suffixes: tuple[str, ...] = ()) -> Path:
    """Checks that the file ``path`` can be written (its folder exists and is writable, it is not
    a folder, its name ends in one of ``suffixes``); ``what`` names the option in messages."""
    p = Path(path)
    if p.is_dir():
        example = p / ("results" + (suffixes or ("",))[0])
        raise OutputError(f"{what} {p}: is a folder; give a file name inside it, e.g. {example}")
    if suffixes and p.suffix.lower() not in suffixes:
        raise OutputError(f"{what} {p}: the file name must end in {' or '.join(suffixes)}")
    folder = p.parent
    if not folder.exists():
        raise OutputError(f"{what} {p}: the folder {folder} does not exist (create it first)")
    if not folder.is_dir():
        raise OutputError(f"{what} {p}: {folder} is not a folder")
    if p.exists() and not os.access(p, os.W_OK):
        raise OutputError(f"{what} {p}: the file exists and is read-only")
    _probe(folder, f"{what} {p}")
    return p


def check_output_dir(path: str | os.PathLike, what: str) -> Path:
    """Checks that the folder ``path`` exists and is writable, or can be created (its nearest
    existing ancestor is a writable folder)."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise OutputError(f"{what} {p}: exists and is not a folder")
    existing = p
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if not existing.is_dir():
        raise OutputError(f"{what} {p}: {existing} is not a folder")
    _probe(existing, f"{what} {p}")
    return p


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yields a temporary path next to ``path``; once the block succeeds the temporary file
    replaces ``path`` atomically, and on any error (a full disk, Ctrl-C) it is removed and
    ``path`` is left as it was."""
    target = Path(path)
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        # mkstemp creates the file private (0600); give it the permissions a plain open() would
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_text_atomic(path: str | os.PathLike, text: str) -> None:
    """Writes ``text`` (UTF-8) to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


#: Suffixes of the temporary folders :func:`atomic_dir` leaves behind only if the process dies
#: (``kill -9``, a power cut) in the middle; they start with a dot and are skipped by readers.
TEMP_DIR_SUFFIXES = (".tmp", ".old")


def _writer_alive(temp: Path) -> bool:
    """Whether the process that made ``temp`` (``.NAME.PID.RANDOM.tmp``) is still running."""
    try:
        pid = int(temp.name.removesuffix(temp.suffix).rsplit(".", 2)[-2])
    except (ValueError, IndexError):
        return False
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, but another user's
        return True
    return True


@contextlib.contextmanager
def atomic_dir(path: str | os.PathLike) -> Iterator[Path]:
    """Yields a new empty temporary folder next to ``path``; once the block succeeds the temporary
    folder replaces ``path``, and on any error (a full disk, Ctrl-C) it is removed and ``path`` is
    left as it was.

    Replacing is two renames (the old folder aside, the new one in) and then the removal of the
    old one: a process killed between the two renames (microseconds) leaves the old folder under
    ``.NAME.*.old`` and no ``NAME``; never a half-written ``NAME``. Leftover temporary folders of
    ``path`` from such a death are removed on the next write."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    for stale in target.parent.glob(f".{target.name}.*"):
        if stale.is_dir() and stale.name.endswith(TEMP_DIR_SUFFIXES) and not _writer_alive(stale):
            shutil.rmtree(stale, ignore_errors=True)
    tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp"))
    try:
        yield tmp
        os.chmod(tmp, 0o777 & ~_umask())  # mkdtemp makes it private (0700); as mkdir() would
        if target.exists() or target.is_symlink():
            old = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.{os.getpid()}.", suffix=".old"))
            os.rmdir(old)
            os.rename(target, old)
            os.rename(tmp, target)
            if old.is_dir() and not old.is_symlink():
                shutil.rmtree(old, ignore_errors=True)
            else:
                old.unlink()
        else:
            os.rename(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
