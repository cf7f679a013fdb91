"""Pictures in a notebook: a solved grid as SVG, and the command line's `--animate` page and
`--tree` drawing, displayed inline.

`animate` and `tree` run the command line with those flags and return the very file it
writes (`.html` / `.svg`): the same self-contained page, in a frame of its own.
"""

from __future__ import annotations

import html
import math
import os
import tempfile
from typing import Any, Optional

from . import _cli


def grid_svg(solution: Any, cell: int = 28) -> Optional[str]:
    """An SVG picture of a rectangular grid of numbers or short strings, or `None` for any
    other shape. Boxes are outlined when the grid is n²×n² (Sudoku)."""
    if not isinstance(solution, list) or not solution or not all(isinstance(r, list) for r in solution):
        return None
    width = len(solution[0])
    if width == 0 or any(len(r) != width for r in solution):
        return None
    if not all(isinstance(v, (int, str)) or v is None for r in solution for v in r):
        return None
    height = len(solution)
    box = math.isqrt(width) if width == height and math.isqrt(width) ** 2 == width and width > 3 else 0
    w, h = width * cell, height * cell
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + 2}" height="{h + 2}" '
        f'viewBox="-1 -1 {w + 2} {h + 2}" font-family="sans-serif" font-size="{cell * 0.55:.0f}">',
        f'<rect x="0" y="0" width="{w}" height="{h}" fill="white" stroke="black" stroke-width="2"/>',
    ]
    for i in range(1, height):
        thick = 2 if box and i % box == 0 else 0.5
        parts.append(f'<line x1="0" y1="{i * cell}" x2="{w}" y2="{i * cell}" stroke="black" stroke-width="{thick}"/>')
    for j in range(1, width):
        thick = 2 if box and j % box == 0 else 0.5
        parts.append(f'<line x1="{j * cell}" y1="0" x2="{j * cell}" y2="{h}" stroke="black" stroke-width="{thick}"/>')
    for i, row in enumerate(solution):
        for j, v in enumerate(row):
            if v is None:
                continue
            parts.append(
                f'<text x="{j * cell + cell / 2}" y="{i * cell + cell / 2}" text-anchor="middle" '
                f'dominant-baseline="central">{html.escape(str(v))}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)


class Page:
    """A self-contained HTML page (`cpsolve.animate`, `cpsolve.tree(..., format="html")`):
    `html` is its text, `save(path)` writes it; a notebook shows it in a frame."""

    def __init__(self, text: str, height: int = 560):
        self.html = text
        self.height = height

    def save(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.html)

    def _repr_html_(self) -> str:
        # A frame of its own: the page's scripts and styles stay out of the notebook's.
        return (
            f'<iframe srcdoc="{html.escape(self.html, quote=True)}" '
            f'style="width:100%;height:{self.height}px;border:1px solid #ccc"></iframe>'
        )

    def __repr__(self) -> str:
        return f"Page({len(self.html)} characters of HTML)"


class Picture:
    """An SVG drawing (`cpsolve.tree`): `svg` is its text, `save(path)` writes it."""

    def __init__(self, text: str):
        self.svg = text

    def save(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.svg)

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"Picture({len(self.svg)} characters of SVG)"


def _drawn(function: str, flag: str, suffix: str, name, text, flags) -> str:
    from .puzzles import _args

    args, stdin = _args(function, name, text, flags)
    with tempfile.TemporaryDirectory(prefix="cpsolve-") as folder:
        path = os.path.join(folder, "picture" + suffix)
        _, interrupt = _cli.run(function, args + [flag, path], stdin)
        with open(path, encoding="utf-8") as f:
            drawn = f.read()
    if interrupt is not None:
        raise interrupt
    return drawn


def animate(name: str, text=None, **flags: Any) -> Page:
    """The search on one puzzle instance, replayed on its picture step by step: the page
    `cpsolve NAME FILE --animate page.html` writes (docs/animate.md). Flags as for
    `cpsolve.puzzles.solve`."""
    return Page(_drawn("animate", "--animate", ".html", name, text, flags))


def tree(name: str, text=None, format: str = "svg", **flags: Any):
    """The search tree of one puzzle instance: the drawing `cpsolve NAME FILE --tree
    tree.svg` writes (`format="html"`: the zoomable page of `--tree tree.html`)."""
    if format not in ("svg", "html"):
        raise ValueError(f"tree: format is 'svg' or 'html', not {format!r}")
    drawn = _drawn("tree", "--tree", "." + format, name, text, flags)
    return Picture(drawn) if format == "svg" else Page(drawn)
