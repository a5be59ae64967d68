"""Checks of a written report: HTML that parses with balanced tags, links only to files that exist
(or to elements of the same page),
and PNG files that are valid, decodable and not blank. Used by the tests (and usable by hand:
``python tests/report_check.py reports``)."""

from __future__ import annotations

import struct
import sys
import zlib
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Checker(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.problems: list[str] = []
        self.refs: list[str] = []
        self.ids: set[str] = set()
        self.saw_doctype = False

    def handle_decl(self, decl: str) -> None:
        self.saw_doctype = self.saw_doctype or decl.lower() == "doctype html"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.refs.append(value)
            if name == "id" and value:
                self.ids.add(value)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.refs.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> does not close <{self.stack[-1] if self.stack else 'nothing'}>")
            return
        self.stack.pop()


def check_html(path: Path) -> tuple[list[str], list[Path]]:
    """(problems, local files referenced) of one HTML page."""
    c = _Checker()
    c.feed(path.read_text(encoding="utf-8"))
    c.close()
    problems = [f"{path}: {p}" for p in c.problems]
    if c.stack:
        problems.append(f"{path}: unclosed tags {c.stack}")
    if not c.saw_doctype:
        problems.append(f"{path}: no <!DOCTYPE html>")
    files = []
    for ref in c.refs:
        url = urlparse(ref)
        if ref.startswith("#") and ref[1:] in c.ids:
            continue  # a link within the page, to an element that exists
        if url.scheme or url.netloc or ref.startswith("#"):
            problems.append(f"{path}: external or fragment reference {ref!r}")
            continue
        target = (path.parent / unquote(url.path)).resolve()
        if not target.is_file():
            problems.append(f"{path}: {ref} does not exist")
        files.append(target)
    return problems, files


def check_png(path: Path) -> list[str]:
    """Problems of a PNG file: signature, chunk CRCs, IHDR first, IEND last, pixel data that
    decompresses to the declared size, and an image that is not a single colour."""
    data = path.read_bytes()
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return [f"{path}: not a PNG (bad signature)"]
    pos, chunks, idat = 8, [], b""
    while pos < len(data):
        if pos + 8 > len(data):
            return [f"{path}: truncated chunk header"]
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        if zlib.crc32(kind + body) != crc:
            return [f"{path}: bad CRC in chunk {kind!r}"]
        chunks.append(kind)
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        if kind == b"IDAT":
            idat += body
        pos += 12 + length
    if not chunks or chunks[0] != b"IHDR" or chunks[-1] != b"IEND":
        return [f"{path}: chunks must start with IHDR and end with IEND"]
    if width == 0 or height == 0:
        return [f"{path}: empty image {width}x{height}"]
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    raw = zlib.decompress(idat)
    if len(raw) != height * (1 + width * channels * depth // 8):
        return [f"{path}: pixel data has {len(raw)} bytes, expected {height * (1 + width * channels * depth // 8)}"]
    import matplotlib.image as mpimg

    pixels = mpimg.imread(path)
    if pixels.size == 0 or float(pixels.max() - pixels.min()) == 0.0:
        return [f"{path}: blank image"]
    return []


def check_report(root: Path) -> tuple[list[str], set[Path]]:
    """Every problem in the report under ``root`` (starting from its index.html and following local
    links to other pages), and the set of files it references."""
    root = Path(root)
    todo, seen, problems, referenced = [root / "index.html"], set(), [], set()
    while todo:
        page = todo.pop().resolve()
        if page in seen:
            continue
        seen.add(page)
        if not page.is_file():
            problems.append(f"{page}: missing")
            continue
        p, files = check_html(page)
        problems += p
        for f in files:
            referenced.add(f)
            if f.suffix == ".html":
                todo.append(f)
    for f in sorted(referenced):
        if f.suffix == ".png" and f.is_file():
            problems += check_png(f)
    for png in root.rglob("*.png"):
        problems += check_png(png)
    return problems, referenced | seen


if __name__ == "__main__":
    found, _ = check_report(Path(sys.argv[1]))
    print("\n".join(found) or "report ok")
    sys.exit(1 if found else 0)
