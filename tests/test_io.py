"""Reading text files: the same lines as sacreBLEU's reader, and clear errors."""

from __future__ import annotations

import contextlib
import gzip
import io
import mmap
import re
import sys
from pathlib import Path
from typing import BinaryIO
from unittest import mock

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


# (mtime=0: a parameter must be the same in every pytest worker, and gzip writes the time)
@pytest.mark.parametrize("data", [b"plain text\n", gzip.compress(b"cut short\n", mtime=0)[:12]])
def test_a_bad_gzip_file_is_an_input_error(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "bad.gz"
    path.write_bytes(data)
    with pytest.raises(InputError, match=r"bad\.gz: not a valid gzip file$"):
        _io.read_segments(str(path))


def test_permission_denied_is_an_input_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def refuse(self: Path, mode: str = "r") -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "open", refuse)
    with pytest.raises(InputError, match=r"^locked\.txt: permission denied$"):
        _io.read_segments("locked.txt")


def test_byte_order_mark_warning() -> None:
    assert _io.byte_order_mark_warning("a.txt", ["\ufeffx"]) == (
        "a.txt:1 starts with a byte-order mark (U+FEFF); like sacreBLEU, bleuprint keeps it "
        "as part of the first segment's text"
    )
    assert _io.byte_order_mark_warning("a.txt", ["x\ufeff"]) is None


# -- read_aligned_blocks: the one reader -----------------------------------------------------


def lines_read(
    path: Path | str,
    *,
    byte_range: tuple[int, int] | None = None,
    first_line: int = 1,
    sacrebleu_names: bool = False,
) -> list[str]:
    """The lines of one file, decoded, as the reader hands them on a line at a time."""
    blocks = _io.read_aligned_blocks(
        [str(path)],
        1,
        byte_ranges=None if byte_range is None else [byte_range],
        first_line=first_line,
        sacrebleu_names=sacrebleu_names,
    )
    lines: list[str] = []
    for _, [data] in blocks:
        lines += _io.decoded(data, str(path), first_line + len(lines)).split("\n")
    return lines


# Every line ending a file can have, and what each line then reads as (split at \n only).
_ENDINGS = [
    (b"a\nb\n", ["a", "b"]),  # a final newline ends the last line
    (b"a\nb", ["a", "b"]),  # no final newline
    (b"a\r\nb\r\n", ["a\r", "b\r"]),  # CRLF keeps its CR
    (b"a\rb\n", ["a\rb"]),  # a lone CR ends nothing
    ("a\u2028b\x85c\n".encode(), ["a\u2028b\x85c"]),  # nor do Unicode separators
    (b"\n\n", ["", ""]),  # empty lines
    (b"", []),
]


@pytest.mark.parametrize(("data", "lines"), _ENDINGS)
def test_the_reader_splits_at_newlines_only(tmp_path: Path, data: bytes, lines: list[str]) -> None:
    path = tmp_path / "text.txt"
    path.write_bytes(data)
    assert lines_read(path) == lines
    assert lines_read(path, byte_range=(0, len(data))) == lines


def test_the_reader_keeps_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbfthe cat\nsat\n")
    assert lines_read(path) == ["\ufeffthe cat", "sat"]


def test_the_reader_of_a_byte_range(tmp_path: Path) -> None:
    path = tmp_path / "text.txt"
    path.write_bytes(b"one\ntwo\nthree\nfour")
    # "two\nthree\n" are bytes 4 to 14; "four" has no newline.
    assert lines_read(path, byte_range=(4, 14)) == ["two", "three"]
    assert lines_read(path, byte_range=(14, 18)) == ["four"]
    assert lines_read(path, byte_range=(4, 4)) == []
    assert lines_read(path, byte_range=(0, 6)) == ["one", "tw"]  # cut mid-line


def test_invalid_utf8_names_the_file_and_the_line_in_the_whole_file(tmp_path: Path) -> None:
    path = tmp_path / "ref.txt"
    path.write_bytes(b"ok\nok\nab\xc3(\n")
    with pytest.raises(InputError) as raised:
        lines_read(path, byte_range=(6, 11), first_line=3)
    error = raised.value
    assert (error.path, error.line, error.segment) == (str(path), 3, None)
    assert error.reason == "not valid UTF-8 (byte 3 of the line is 0xc3)"
    assert str(error) == f"{path}:3: not valid UTF-8 (byte 3 of the line is 0xc3)"
    # The same error, in the same words, from every way in.
    with pytest.raises(InputError, match=re.escape(str(error)) + "$"):
        _io.read_segments(str(path))
    with pytest.raises(InputError, match=r"^ref\.txt:3: not valid UTF-8 \(byte 3 of the line is"):
        _io.split_segments(path.read_bytes(), "ref.txt")


def test_standard_input_is_read_only_when_asked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"from stdin \n\xff\n")))
    with pytest.raises(InputError, match=r"^<stdin>:2: not valid UTF-8"):
        _io.read_segments("-")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match=r"^-: no such file$"):
        lines_read("-")  # without sacrebleu_names, "-" is a file name


def test_a_directory_and_an_empty_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"is a directory, not a file$"):
        lines_read(tmp_path)
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    with pytest.raises(InputError, match=r"empty\.txt: the file is empty$") as raised:
        _io.read_segments(str(empty))
    assert raised.value.path == str(empty)


def test_files_of_different_lengths_are_named_with_their_counts() -> None:
    error = _io.lines_differ("hyp.txt", 1, "ref.txt", 3)
    assert (
        str(error) == "hyp.txt has 1 line but ref.txt has 3: every file needs one line per segment"
    )


# -- files read together, a block of lines each ------------------------------------------------

_LINE = st.text(st.characters(blacklist_characters="\n", blacklist_categories=["Cs"]), max_size=9)


@given(
    lines=st.lists(_LINE, min_size=1, max_size=30),
    end=st.sampled_from(["", "\n"]),
    size=st.integers(1, 8),
    read=st.integers(1, 32),
    mapped=st.booleans(),
)
def test_files_read_together_give_their_lines_in_blocks(
    tmp_path_factory: pytest.TempPathFactory,
    *,
    lines: list[str],
    end: str,
    size: int,
    read: int,
    mapped: bool,
) -> None:
    # (read: the bytes of each read, small here, so that lines and groups of lines span reads;
    # mapped: plain files are read through a memory map, streams block by block)
    folder = tmp_path_factory.mktemp("aligned")
    if not end and not lines[-1]:  # (a file that ends in \n: its last line is not empty)
        return
    paths = [folder / "a.txt", folder / "b.txt"]
    paths[0].write_text("\n".join(lines) + end, encoding="utf-8", newline="")
    paths[1].write_text("\n".join(reversed(lines)) + "\n", encoding="utf-8", newline="")
    with mock.patch.object(_io, "_BLOCK", read), _mapped_or_not(mapped):
        read_blocks = list(_io.read_aligned_blocks([str(path) for path in paths], size))
    blocks = [[block.decode("utf-8") for block in chunk] for _, chunk in read_blocks]
    counts = [len(block[0].split("\n")) for block in blocks]
    assert [count for count, _ in read_blocks] == counts
    # (whole groups of size lines but the last: the reader notes where groups end as it reads)
    assert all(count % size == 0 for count in counts[:-1])
    assert "\n".join(block[0] for block in blocks).split("\n") == lines
    assert "\n".join(block[1] for block in blocks).split("\n") == lines[::-1]


def test_files_read_together_across_read_blocks(tmp_path: Path) -> None:
    # Lines longer than a read (1 MiB) or across reads; a line not valid UTF-8 in a later
    # block of lines is named by its number in the file.
    long = ["x" * 300_000, "y" * 1_500_000, "z" * 300_000, "w"]
    (tmp_path / "a.txt").write_text("\n".join(long) + "\n", encoding="utf-8")
    (tmp_path / "b.txt").write_bytes(b"1\n2\n3\n\xc3\n")
    paths = [str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]
    chunks = [chunk for _, chunk in _io.read_aligned_blocks(paths, 1, sacrebleu_names=True)]
    assert len(chunks) > 1
    assert b"\n".join(chunk[0] for chunk in chunks).decode() == "\n".join(long)
    first_line = 1 + sum(chunk[1].count(b"\n") + 1 for chunk in chunks[:-1])
    assert chunks[-1][1].endswith(b"\xc3")
    with pytest.raises(
        InputError, match=r"b\.txt:4: not valid UTF-8 \(byte 1 of the line is 0xc3\)"
    ):
        _io.decoded(chunks[-1][1], "b.txt", first_line)


@pytest.mark.parametrize("mapped", [True, False], ids=["mapped", "read"])
@pytest.mark.parametrize("last", ["\n", ""], ids=["newline", "no newline"])
def test_files_read_together_must_have_as_many_lines(
    tmp_path: Path, mapped: bool, last: str
) -> None:
    # (blocks of 3 bytes: the longer file is counted to its end from a later block)
    (tmp_path / "a.txt").write_text("a\n" * 5, encoding="utf-8")
    (tmp_path / "b.txt").write_text("b\n" * 6 + "b" + last, encoding="utf-8")
    paths = [str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]
    with (
        pytest.raises(InputError, match=r"a\.txt has 5 lines but .*b\.txt has 7: every file"),
        mock.patch.object(_io, "_BLOCK", 3),
        _mapped_or_not(mapped),
    ):
        list(_io.read_aligned_blocks(paths, 2))


def _mapped_or_not(mapped: bool) -> contextlib.AbstractContextManager[object]:
    """Plain files read through a memory map (as they are: checked), or block by block as
    streams are."""
    if not mapped:
        return mock.patch.object(_io, "_mapped", lambda _: None)
    mapping = _io._mapped

    def surely_mapped(handle: BinaryIO) -> mmap.mmap | None:
        mapped = mapping(handle)
        assert mapped is not None, "a plain file is read through a memory map"
        return mapped

    return mock.patch.object(_io, "_mapped", surely_mapped)


def test_mapped_files_are_read_in_bounded_memory(tmp_path: Path) -> None:
    # The pages behind the lines taken are let go of: the process's own pages of the file stay
    # a block or two, however long it is (a block here: 4 pages).
    path = tmp_path / "a.txt"
    path.write_bytes(b"".join(b"%07d\n" % number for number in range(20_000)))
    pages = mmap.PAGESIZE
    with (
        mock.patch.object(_io, "_BLOCK", 4 * pages),
        mock.patch.object(_io, "_released", wraps=_io._released) as released,
    ):
        taken = sum(size for size, _ in _io.read_aligned_blocks([str(path)], 100))
    assert taken == 20_000
    let_go = [call.args[1:] for call in released.call_args_list]
    assert let_go[0][0] == 0
    # (each from the page where the last ended: page by page, nothing let go of twice)
    ends = [stop - stop % pages for _, stop in let_go]
    assert [start for start, _ in let_go[1:]] == ends[:-1]
    assert let_go[-1][1] > 160_000 - 2 * 4 * pages
