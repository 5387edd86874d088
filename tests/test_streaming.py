"""Streaming: chunked counting of iterables and files, in one process or several."""

from __future__ import annotations

import functools
import itertools
import os
import threading
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleuprint import BLEUScore, _counting, _io, brevity
from bleuprint._counting import handed_on
from bleuprint._streaming import (
    PART_LINES,
    LineBlock,
    count_files,
    file_parts,
    in_processes,
    part_sizes,
    started_processes,
)
from bleuprint.exceptions import ConfigurationError, InputError

HYPOTHESES = ["the cat is here", "", "a dog", "the the the", "one two three four five"]
REFERENCES = [
    ["the cat was here", "here is the cat"],
    ["x"],
    ["a dog", "a big dog", "dog"],
    ["the cat"],
    ["one two three four"],
]


@pytest.mark.parametrize("chunk_size", [1, 2, 3, 100])
def test_stream_sums_exactly_like_the_whole_corpus(chunk_size: int) -> None:
    # The average reference length is a float: the fold must add in corpus order.
    bleu = BLEUScore(reference_length=brevity.Average())
    streamed = bleu.count_stream(iter(HYPOTHESES), iter(REFERENCES), chunk_size=chunk_size)
    assert streamed == sum(bleu.count_segments(HYPOTHESES, REFERENCES), bleu.empty_stats())


@pytest.mark.parametrize("chunk_size", [2, 3, 4])
def test_stream_adds_fractional_lengths_in_corpus_order(chunk_size: int) -> None:
    # Averages such as 7/3 and 11/3: adding each chunk's own sum to the running total rounds
    # differently (93.33333333333334) from the left-to-right sum a whole corpus gets.
    bleu = BLEUScore(reference_length=brevity.Average())
    hypotheses = ["a b c", "a", "b c", "a b c d e", "x y"] * 7
    references = [
        ["a b", "a b c d"],
        ["a b c", "a", "a b c d e f g"],
        ["b"],
        ["a b", "c d e f", "g"],
        ["x", "y z w", "q r s t u v"],
    ] * 7
    expected = 0.0
    for refs in references:
        expected += sum(len(ref.split()) for ref in refs) / len(refs)
    streamed = bleu.count_stream(hypotheses, references, chunk_size=chunk_size)
    assert streamed.reference_length == expected == 93.33333333333333


def test_several_processes_give_the_same_statistics() -> None:
    bleu = BLEUScore(reference_length=brevity.Average())
    hypotheses, references = HYPOTHESES * 40, REFERENCES * 40
    assert bleu.count_stream(hypotheses, references, chunk_size=7, jobs=2) == bleu.count(
        hypotheses, references
    )


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_error_names_the_segment_in_the_whole_stream(jobs: int) -> None:
    references = [["a"], ["b"], ["c"], []]
    with pytest.raises(InputError, match=r"^segment 3: no references$") as raised:
        BLEUScore().count_stream(["a", "b", "c", "d"], references, chunk_size=2, jobs=jobs)
    assert (raised.value.segment, raised.value.reason) == (3, "no references")


@pytest.mark.parametrize(
    ("hypotheses", "references", "message"),
    [
        (["a", "b"], [["a"]], "more hypotheses than the 1 reference list$"),
        (["a"], [["a"], ["b"]], "more reference lists than hypotheses"),
        ([], [], "the corpus is empty"),
    ],
)
def test_misaligned_or_empty_streams(
    hypotheses: list[str], references: list[list[str]], message: str
) -> None:
    with pytest.raises(InputError, match=message):
        BLEUScore().count_stream(hypotheses, references)


@pytest.mark.parametrize("options", [{"chunk_size": 0}, {"jobs": 0}, {"chunk_size": 1.5}])
def test_bad_options(options: dict[str, float]) -> None:
    with pytest.raises(ConfigurationError):
        BLEUScore().count_stream(["a"], [["a"]], **options)  # type: ignore[arg-type]


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("jobs", [1, 2])
def test_files_are_read_as_the_shared_data_says(tmp_path: Path, jobs: int) -> None:
    # split on \n only; a final \n ends the last line; a byte-order mark stays; \r stays
    hypotheses = write(tmp_path / "hyp.txt", "\ufeffthe cat\r\na\u2028b\n\nlast\n".encode())
    references = write(tmp_path / "ref.txt", b"the cat\na b\nx\nlast")
    expected = BLEUScore().corpus_score(
        ["\ufeffthe cat\r", "a\u2028b", "", "last"], [["the cat"], ["a b"], ["x"], ["last"]]
    )
    score = BLEUScore().corpus_score_files(hypotheses, [references], chunk_size=3, jobs=jobs)
    assert score == expected


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_files_score_as_sacrebleu_scores_them(
    shared: Callable[..., Path], tmp_path: Path, jobs: int
) -> None:
    """A WMT22 system against both references, read in blocks by one process or split among
    several, against sacreBLEU's corpus_bleu of the same lines (which it reads itself)."""
    import sacrebleu  # noqa: PLC0415

    folder = shared("data", "wmt22", "en-de")
    files = [folder / name for name in ("sys.Online-B.txt", "ref.A.txt", "ref.B.txt")]
    hypotheses, *references = (
        path.read_text(encoding="utf-8").removesuffix("\n").split("\n") for path in files
    )
    expected = sacrebleu.corpus_bleu(hypotheses, references).score
    result = BLEUScore.sacrebleu().corpus_score_files(
        files[0], files[1:], chunk_size=500, jobs=jobs
    )
    assert 100 * result.score == pytest.approx(expected, rel=1e-12)
    assert result.stats.segments == len(hypotheses)


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("short", [0, 1, 2])
def test_files_of_different_lengths(tmp_path: Path, jobs: int, short: int) -> None:
    """Whichever file is short, the error names the hypothesis file and the first file whose
    length differs, with their line counts, also where it comes after the first chunk."""
    lines = [f"line {index}".encode() for index in range(7)]
    paths = [
        write(tmp_path / name, b"\n".join(lines[:5] if index == short else lines) + b"\n")
        for index, name in enumerate(["hyp.txt", "ref1.txt", "ref2.txt"])
    ]
    other = "ref1" if short in (0, 1) else "ref2"
    counts = (5, 7) if short == 0 else (7, 5)
    with pytest.raises(
        InputError, match=rf"hyp\.txt has {counts[0]} lines but .*{other}\.txt has {counts[1]}:"
    ):
        BLEUScore().corpus_score_files(paths[0], paths[1:], chunk_size=2, jobs=jobs)


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_empty_file_is_named(tmp_path: Path, jobs: int) -> None:
    hypotheses = write(tmp_path / "hyp.txt", b"a\nb\n")
    references = write(tmp_path / "ref.txt", b"")
    with pytest.raises(InputError, match=r"ref\.txt: the file is empty$"):
        BLEUScore().corpus_score_files(hypotheses, [references], jobs=jobs)


@pytest.mark.parametrize("jobs", [1, 2])
def test_undecodable_bytes_name_file_and_line(tmp_path: Path, jobs: int) -> None:
    hypotheses = write(tmp_path / "hyp.txt", b"a\nb \xff\n")
    references = write(tmp_path / "ref.txt", b"a\nb\n")
    with pytest.raises(
        InputError, match=r"hyp\.txt:2: not valid UTF-8 \(byte 3 of the line is 0xff\)$"
    ) as raised:
        BLEUScore().corpus_score_files(hypotheses, [references], jobs=jobs)
    assert (raised.value.path, raised.value.line) == (str(hypotheses), 2)


def test_an_error_in_a_later_part_names_its_line(tmp_path: Path) -> None:
    lines = [f"line {number}".encode() for number in range(1, 3001)]
    references = write(tmp_path / "ref.txt", b"\n".join(lines))
    lines[2899] += b" \xff"
    hypotheses = write(tmp_path / "hyp.txt", b"\n".join(lines))
    assert len(file_parts([str(hypotheses), str(references)], 2)) == 3
    with pytest.raises(InputError, match=r"hyp\.txt:2900: not valid UTF-8") as raised:
        BLEUScore().corpus_score_files(hypotheses, [references], jobs=2)
    assert raised.value.line == 2900


@given(partitions=st.integers(1, 100_000), jobs=st.integers(1, 64))
def test_parts_are_largest_first_and_end_in_single_partitions(partitions: int, jobs: int) -> None:
    sizes = list(part_sizes(partitions, jobs))
    assert sum(sizes) == partitions
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[0] <= min(-(-partitions // (2 * jobs)), PART_LINES // 1024)
    assert sizes[-1] == 1


def test_file_parts_cover_the_files_line_by_line(tmp_path: Path) -> None:
    paths = []
    for name, width in [("hyp.txt", 3), ("ref.txt", 11)]:
        text = "".join(f"{'x' * (number * width % 17)}\n" for number in range(9_000))
        paths.append(str(write(tmp_path / name, text.encode())))
    parts = file_parts(paths, 2)
    assert len(parts) > 4
    for index, path in enumerate(paths):
        data = Path(path).read_bytes()
        ranges = [part.byte_ranges[index] for part in parts]
        assert ranges[0][0] == 0 and ranges[-1][1] == len(data)
        assert all(end == start for (_, end), (start, _) in itertools.pairwise(ranges))
        for part, (start, end) in zip(parts, ranges):
            assert data[:start].count(b"\n") + 1 == part.first_line
            assert data[end - 1 : end] == b"\n"


def test_missing_file(tmp_path: Path) -> None:
    references = write(tmp_path / "ref.txt", b"a\n")
    with pytest.raises(InputError, match=r"nothing\.txt: no such file$") as raised:
        BLEUScore().corpus_score_files(tmp_path / "nothing.txt", [references])
    assert raised.value.path == str(tmp_path / "nothing.txt")


def test_reference_files_must_be_a_list(tmp_path: Path) -> None:
    hypotheses = write(tmp_path / "hyp.txt", b"a\n")
    with pytest.raises(InputError, match="list of one or more paths"):
        BLEUScore().corpus_score_files(hypotheses, hypotheses)  # type: ignore[arg-type]


def peak_memory_of_streaming(segments: int) -> int:
    def hypotheses() -> Iterator[str]:
        for index in range(segments):
            yield f"segment {index} of a long corpus with words that repeat"

    def references() -> Iterator[list[str]]:
        for index in range(segments):
            yield [f"segment {index} of the long corpus with words repeated"]

    tracemalloc.start()
    try:
        BLEUScore().count_stream(hypotheses(), references(), chunk_size=500)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.scale
def test_memory_does_not_grow_with_the_corpus() -> None:
    small, large = peak_memory_of_streaming(2_000), peak_memory_of_streaming(20_000)
    assert large < 1.5 * small


def peak_memory_of_files(folder: Path, segments: int, jobs: int) -> int:
    hypotheses = write(
        folder / f"hyp{segments}.txt",
        "".join(
            f"segment {i} of a long file with words that repeat\n" for i in range(segments)
        ).encode(),
    )
    references = write(
        folder / f"ref{segments}.txt",
        "".join(
            f"segment {i} of the long file with words repeated\n" for i in range(segments)
        ).encode(),
    )
    tracemalloc.start()
    try:
        BLEUScore().corpus_score_files(hypotheses, [references], chunk_size=500, jobs=jobs)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.scale
@pytest.mark.parametrize("jobs", [1, 2])
def test_memory_of_files_does_not_grow_with_the_corpus(
    tmp_path: Path, jobs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Files are read (and scanned for line ends) a block at a time: blocks of 64 KiB rather
    # than megabytes let a small corpus show that memory does not grow past them.
    monkeypatch.setattr(_io, "_BLOCK", 1 << 16)
    monkeypatch.setattr(_io.LineLayout, "BLOCK", 1 << 16)
    # (The small corpus is read in enough blocks to have as many counted at once as the
    # counting threads ever hold: twice their number and one.)
    small = peak_memory_of_files(tmp_path, 20_000, jobs)
    large = peak_memory_of_files(tmp_path, 200_000, jobs)
    # Several jobs scan the files for their parts on threads, each holding a block: at once,
    # or one after the other, as the threads happen to run.
    scans = 2 * (1 << 16) if jobs > 1 else 0
    assert large < 1.5 * small + scans


def test_processes_start_only_for_more_than_one_call() -> None:
    # One call runs in this process whatever the jobs; two calls on four jobs start two.
    assert list(in_processes(os.getpid, [()], jobs=4)) == [os.getpid()]
    pids = list(in_processes(os.getpid, [(), ()], jobs=4))
    assert os.getpid() not in pids


def test_works_go_to_the_counting_threads_only_when_there_are_several(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A single work runs in this thread (a pool costs more than a small batch takes to count,
    # and its module start-up time); several run on the pool's threads, results in order.
    monkeypatch.setattr(_counting, "COUNTING_THREADS", 2)
    assert list(handed_on([threading.get_ident])) == [threading.get_ident()]
    works = [functools.partial(_numbered, number) for number in range(9)]
    results = list(handed_on(works))
    assert [number for number, _ in results] == list(range(9))
    assert threading.get_ident() not in {thread for _, thread in results}
    monkeypatch.setattr(_counting, "COUNTING_THREADS", 1)
    assert {thread for _, thread in handed_on(works)} == {threading.get_ident()}


def _numbered(number: int) -> tuple[int, int]:
    return number, threading.get_ident()


def test_file_blocks_are_counted_on_the_counting_threads_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A file of many blocks is read in this thread while the counting threads count the
    # blocks read: the same statistics, exactly, as one thread's, and an error in a late
    # block names its line.
    monkeypatch.setattr(_io, "_BLOCK", 1 << 12)  # (blocks of 4 KiB: about 30 of them)
    lines = [f"line {number} has {number % 7} words".encode() for number in range(1, 5001)]
    references = write(tmp_path / "ref.txt", b"\n".join(lines))
    hypotheses = write(tmp_path / "hyp.txt", b"\n".join(line[: len(line) - 2] for line in lines))
    counted_in: set[int] = set()
    counted = LineBlock.counted

    def recorded(block: LineBlock, *arguments: Any) -> Any:
        counted_in.add(threading.get_ident())
        return counted(block, *arguments)

    monkeypatch.setattr(LineBlock, "counted", recorded)
    engine = BLEUScore(reference_length=brevity.Average())  # (float sums: order shows)
    monkeypatch.setattr(_counting, "COUNTING_THREADS", 1)
    alone = count_files(engine, hypotheses, [references], chunk_size=100)
    assert counted_in == {threading.get_ident()}
    counted_in.clear()
    monkeypatch.setattr(_counting, "COUNTING_THREADS", 3)
    assert count_files(engine, hypotheses, [references], chunk_size=100) == alone
    assert len(counted_in) > 1 and threading.get_ident() not in counted_in
    lines[4899] += b" \xff"
    write(tmp_path / "hyp.txt", b"\n".join(lines))
    with pytest.raises(InputError, match=r"hyp\.txt:4900: not valid UTF-8"):
        count_files(engine, hypotheses, [references], chunk_size=100)


def _counting_threads() -> int:
    return _counting.COUNTING_THREADS


@pytest.mark.parametrize("variable", [None, "3"])
def test_processes_share_the_cpus_unless_told_their_threads(
    monkeypatch: pytest.MonkeyPatch, variable: str | None
) -> None:
    # Two processes of one CPU's worth of threads each would run twice as many threads as
    # there are CPUs: unless BLEUPRINT_THREADS says how many, each counts on a half.
    monkeypatch.setattr(_counting, "COUNTING_THREADS", 4)
    if variable is None:
        monkeypatch.delenv("BLEUPRINT_THREADS", raising=False)
    else:
        monkeypatch.setenv("BLEUPRINT_THREADS", variable)
    with started_processes(2) as processes:
        threads = list(processes.map(_counting_threads, [(), ()]))
    assert threads == ([2, 2] if variable is None else [4, 4])
