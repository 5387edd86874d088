"""What a reader of the built documentation sees, checked on its sources (issue 26): an index
that counts its pages right, and code blocks that wrap their long lines instead of hiding
their ends behind a scrollbar."""

from __future__ import annotations

import re

from tests.conftest import REPOSITORY

DOCS = REPOSITORY / "docs"
_NUMBERS = {"Two": 2, "Three": 3, "Four": 4, "Five": 5}


def test_the_performance_index_counts_its_pages() -> None:
    text = (DOCS / "performance" / "index.md").read_text(encoding="utf-8")
    said = re.match(r"# .*\n\n(\w+) pages", text)
    assert said is not None
    toctree = re.search(r"```\{toctree\}\n:hidden:\n\n(.*?)```", text, re.DOTALL)
    assert toctree is not None
    pages = toctree[1].split()
    listed = re.findall(r"^- \[[^]]+\]\(([\w-]+)\.md\)", text, re.MULTILINE)
    assert listed == pages
    assert _NUMBERS[said[1]] == len(pages)
    assert all((DOCS / "performance" / f"{page}.md").is_file() for page in pages)


def test_code_blocks_wrap_their_long_lines() -> None:
    # The style sheet the configuration adds after the theme's makes highlighted code wrap.
    configuration = (DOCS / "conf.py").read_text(encoding="utf-8")
    sheets = re.search(r"^html_css_files = \[(.*)\]$", configuration, re.MULTILINE)
    assert sheets is not None
    rules = "".join(
        (DOCS / "_static" / name.strip("\"' ")).read_text(encoding="utf-8")
        for name in sheets[1].split(",")
    )
    block = re.search(r"\.highlight pre \{([^}]*)\}", rules)
    assert block is not None
    assert "white-space: pre-wrap;" in block[1]
