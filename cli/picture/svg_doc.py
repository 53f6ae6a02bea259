"""A small SVG writer for the board pictures (SPEC §31.7): elements through xml.etree, so
every text is escaped, and output that is the same bytes for the same position (attributes in
the order given, whole numbers or one fixed decimal, no clock, no random)."""
from __future__ import annotations

import os
import tempfile
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"


class PictureError(Exception):
    """The picture could not be written; the message names the file and the reason."""


def num(value: float) -> str:
    """A coordinate as text: whole numbers bare, others with one decimal."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.1f}"


def el(parent: ET.Element | None, tag: str, text: str | None = None, **attrs) -> ET.Element:
    """An element with attributes in the order given; `class_` is written `class`, `_` in
    other names `-` (stroke_width -> stroke-width), numbers through num()."""
    clean = {}
    for key, value in attrs.items():
        if value is None:
            continue
        name = "class" if key == "class_" else key.replace("_", "-")
        clean[name] = num(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
    node = ET.Element(tag, clean) if parent is None else ET.SubElement(parent, tag, clean)
    if text is not None:
        node.text = text
    return node


def new_svg(width: int, height: int, title: str) -> ET.Element:
    root = el(None, "svg", xmlns=SVG_NS, width=width, height=height,
              viewBox=f"0 0 {width} {height}", font_family=FONT)
    el(root, "title", title)
    return root


def label(parent: ET.Element, x: float, y: float, text: str, size: float = 12, *, fill: str = "#e8ecf4",
          anchor: str = "start", weight: str | None = None, **attrs) -> ET.Element:
    return el(parent, "text", text, x=x, y=y, font_size=size, fill=fill, text_anchor=anchor,
              font_weight=weight, **attrs)


def wrapped(parent: ET.Element, x: float, y: float, text: str, size: int, chars: int, **attrs) -> float:
    """`text` as lines of at most `chars` characters from baseline y; returns the baseline
    after the last line."""
    for line in textwrap.wrap(text, chars) or [""]:
        label(parent, x, y, line, size, **attrs)
        y += round(size * 1.3)
    return y


def to_text(root: ET.Element) -> str:
    ET.indent(root, space=" ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def check_target(path: str | os.PathLike) -> Path:
    """Raise PictureError when `path` can plainly not be written (a folder, a missing folder,
    a folder without write permission); the file's folder otherwise."""
    target = Path(path)
    if str(path).strip() == "":
        raise PictureError("no file named for the picture")
    if target.is_dir():
        raise PictureError(f"cannot write {target}: it is a directory")
    folder = target.parent
    if not folder.is_dir():
        raise PictureError(f"cannot write {target}: there is no folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise PictureError(f"cannot write {target}: permission denied")
    return folder


def write_svg(path: str | os.PathLike, text: str) -> Path:
    """Write the picture whole or not at all (a temporary file renamed into place), so a
    failed write never leaves half a picture; raises PictureError saying why."""
    target = Path(path)
    folder = check_target(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".asv-svg-", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise PictureError(f"cannot write {target}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise PictureError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target


def save_picture(path: str, draw: Callable[[], str]) -> tuple[bool, str]:
    """The REPL's `board --svg FILE` (SPEC §31.7) for either game: (written, line to say)."""
    if not path:
        return False, "board --svg FILE: name the file, e.g. board --svg board.svg"
    try:
        out = write_svg(os.path.expanduser(path), draw())
    except PictureError as exc:
        return False, str(exc)
    return True, f"board picture written to {out}"
