"""Reading text files: the same lines as sacreBLEU's reader, and clear errors."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.utils import smart_open

from bleuprint import _io
from bleuprint.exceptions import InputError

# Characters that stress line ends and whitespace: CR, LF, NEL, U+2028/9, NBSP, BOM, tab.
_AWKWARD = st.sampled_from(["\r", "\n", "\x85", "\u2028", "\u2029", "\xa0", "\ufeff", "\t", " "])
_TEXT = st.lists(st.one_of(_AWKWARD, st.sampled_from(["a", "b", "é", "猫"])), min_size=1).map(
    "".join
)


@given(_TEXT)
def test_segments_are_sacrebleus_lines(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    # sacreBLEU's command line: smart_open (UTF-8, newline="\n"), then rstrip() on each line.
    path = tmp_path_factory.mktemp("io") / "text.txt"
    path.write_bytes(text.encode("utf-8"))
    with smart_open(str(path)) as handle:
        expected = [line.rstrip() for line in handle]
    assert _io.read_segments(str(path)) == expected


def test_gzip_files_are_read_as_sacrebleu_reads_them(tmp_path: Path) -> None:
    text = "the cat\r\nsat \u2028 here\n"
    path = tmp_path / "text.txt.gz"
    path.write_bytes(gzip.compress(text.encode("utf-8")))
    with smart_open(str(path)) as handle:
        expected = [line.rstrip() for line in handle]
    assert _io.read_segments(str(path)) == expected == ["the cat", "sat \u2028 here"]


@pytest.mark.parametrize("data", [b"plain text\n", gzip.compress(b"cut short\n")[:12]])
def test_a_bad_gzip_file_is_an_input_error(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "bad.gz"
    path.write_bytes(data)
    with pytest.raises(InputError, match=r"bad\.gz: not a valid gzip file$"):
        _io.read_segments(str(path))


def test_permission_denied_is_an_input_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def refuse(self: Path) -> bytes:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "read_bytes", refuse)
    with pytest.raises(InputError, match=r"^locked\.txt: permission denied$"):
        _io.read_segments("locked.txt")


def test_byte_order_mark_warning() -> None:
    assert _io.byte_order_mark_warning("a.txt", ["\ufeffx"]) == (
        "a.txt:1 starts with a byte-order mark (U+FEFF); like sacreBLEU, bleuprint keeps it "
        "as part of the first segment's text"
    )
    assert _io.byte_order_mark_warning("a.txt", ["x\ufeff"]) is None
