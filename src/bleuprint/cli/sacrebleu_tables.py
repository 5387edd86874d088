"""The two tables of sacreBLEU's multi-system output, laid out as ``tabulate`` lays them out
for sacreBLEU (``fancy_grid`` for text, ``latex_booktabs`` for LaTeX): the first column
right-aligned, the others centred, every column two characters wider than its header at least.

>>> print(grid(["System", "BLEU"], [["a.txt", "33.7"], ["b.txt", "26.0\\n(p = 0.0010)*"]]))
╒══════════╤═══════════════╕
│   System │     BLEU      │
╞══════════╪═══════════════╡
│    a.txt │     33.7      │
├──────────┼───────────────┤
│    b.txt │     26.0      │
│          │ (p = 0.0010)* │
╘══════════╧═══════════════╛
"""

from __future__ import annotations

from collections.abc import Sequence

_LATEX_ESCAPES = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "^": r"\^{}",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "\\": r"\textbackslash{}",
    "<": r"\ensuremath{<}",
    ">": r"\ensuremath{>}",
}


def _widths(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[int]:
    return [
        max([len(header) + 2, *(len(line) for row in rows for line in row[column].split("\n"))])
        for column, header in enumerate(headers)
    ]


def _aligned(text: str, width: int, column: int) -> str:
    return text.rjust(width) if column == 0 else f"{text:^{width}}"


def grid(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """The ``fancy_grid`` table; a cell's lines (``\\n``) stack within its row."""
    widths = _widths(headers, rows)

    def rule(left: str, fill: str, middle: str, right: str) -> str:
        return left + middle.join(fill * (width + 2) for width in widths) + right

    def lines(cells: Sequence[str]) -> list[str]:
        split = [cell.split("\n") for cell in cells]
        height = max(len(parts) for parts in split)
        return [
            "│ "
            + " │ ".join(
                _aligned(parts[line] if line < len(parts) else "", width, column)
                for column, (parts, width) in enumerate(zip(split, widths))
            )
            + " │"
            for line in range(height)
        ]

    out = [rule("╒", "═", "╤", "╕"), *lines(headers), rule("╞", "═", "╪", "╡")]
    for number, row in enumerate(rows):
        if number:
            out.append(rule("├", "─", "┼", "┤"))
        out.extend(lines(row))
    out.append(rule("╘", "═", "╧", "╛"))
    return "\n".join(out)


def latex(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """The ``latex_booktabs`` table, cells padded before LaTeX's special characters are
    escaped (as ``tabulate`` does)."""
    widths = _widths(headers, rows)

    def line(cells: Sequence[str]) -> str:
        padded = (
            _aligned(cell, width, column) for column, (cell, width) in enumerate(zip(cells, widths))
        )
        escaped = ("".join(_LATEX_ESCAPES.get(char, char) for char in cell) for cell in padded)
        return " " + " & ".join(escaped) + " \\\\"

    spec = "r" + "c" * (len(headers) - 1)
    head = [f"\\begin{{tabular}}{{{spec}}}", "\\toprule", line(headers), "\\midrule"]
    return "\n".join([*head, *(line(row) for row in rows), "\\bottomrule", "\\end{tabular}"])
