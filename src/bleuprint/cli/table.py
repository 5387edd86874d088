"""Plain-text tables for the command line."""

from __future__ import annotations

from collections.abc import Sequence


def format_table(rows: Sequence[Sequence[str]]) -> str:
    """Left-aligned columns two spaces apart, the header underlined.

    >>> print(format_table([("name", "score"), ("a", "1.0")]), end="")
    name  score
    ----  -----
    a     1.0
    """
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines) + "\n"
