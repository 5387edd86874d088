"""bleuprint.dask on a real local cluster of two worker processes.

Most expected values are the local engine's result on the same segments in this process: the
claim under test is that distributing the work changes nothing. Where a test could only compare
the code with itself (retries, killed workers, files), the expected score is sacreBLEU 2.6.0's,
from ``../shared/data/wmt22/*/expected.json``.
"""

from __future__ import annotations

import functools
import os
import re
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import cloudpickle
import dask
import dask.bag
import dask.dataframe
import pandas as pd
import pytest
from dask.delayed import Delayed, delayed
from distributed import Client, LocalCluster
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuprint import BLEUResult, BLEUScore, ConfigurationError, InputError, _io, presets
from bleuprint import dask as bleu_dask
from bleuprint.compat import hf_evaluate
from bleuprint.typing import CorpusSmoother, implements
from tests.conftest import NLTK_WARNS, as_the_preset_reads, load_shared_json, require_shared

PRESET_NAMES = sorted(presets.PRESETS)


def _sums_its_own_way(name: str) -> bool:
    """Whether the preset's corpus total is more than the sum of its segments' statistics."""
    return implements(presets.get(name).build().smoothing, CorpusSmoother)


# A cluster sums statistics as the local engine does; what can differ is a definition that
# sums in its own way (NLTK's, GLEU's, ignite's mean, fast-bleu's), so those are checked on
# Dask, with sacreBLEU's preset for every definition that adds plain sums (the engine's one
# path for all of them). Every preset's local sums are checked in tests/test_arrays.py.
DASK_PRESETS = [name for name in PRESET_NAMES if _sums_its_own_way(name)] + ["sacrebleu"]
# (pair, system): two references each; zh-en's Online-W has an empty hypothesis line.
CORPORA = [("de-en", "Online-B"), ("zh-en", "Online-W")]


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    # pytest imports this module under a name the workers cannot import: send its
    # functions (the failure injectors below) by value.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    with bleu_dask.adaptive_malloc():
        cluster = LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        )
    with cluster, Client(cluster) as client:
        yield client
    cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


def _lines(path: Path) -> list[str]:
    # As the data's README says: UTF-8, split on LF only, the final empty string dropped.
    lines = path.read_text(encoding="utf-8").split("\n")
    return lines[:-1] if lines[-1] == "" else lines


@functools.cache
def _corpus(pair: str, system: str) -> tuple[list[str], list[list[str]]]:
    folder = require_shared("data", "wmt22", pair)
    hypotheses = _lines(folder / f"sys.{system}.txt")
    columns = [_lines(folder / name) for name in ("ref.A.txt", "ref.B.txt")]
    return hypotheses, [list(refs) for refs in zip(*columns, strict=True)]


def _assert_sacrebleus(result: BLEUResult, pair: str, system: str) -> None:
    """The result is sacreBLEU's default corpus BLEU of the system against references A and B."""
    expected = load_shared_json("data", "wmt22", pair, "expected.json")["systems"][system]
    expected = expected["scores"]["default|ref:A+B"]
    assert abs(100 * result.score - expected["score"]) <= 1e-9
    assert list(result.matches) == expected["counts"]
    assert list(result.totals) == expected["totals"]
    assert (result.hypothesis_length, result.reference_length) == (
        expected["sys_len"],
        expected["ref_len"],
    )


def _frame(hypotheses: list[str], references: list[list[str]], width: int = 2) -> pd.DataFrame:
    """A hypothesis column and ``width`` reference columns, ref0, ref1, ..."""
    columns = {f"ref{k}": [refs[k] for refs in references] for k in range(width)}
    return pd.DataFrame({"hypothesis": hypotheses, **columns}, dtype=object)


def _bag(hypotheses: list[str], references: list[list[str]], partitions: int) -> dask.bag.Bag:
    pairs = list(zip(hypotheses, references, strict=True))
    return dask.bag.from_sequence(pairs, npartitions=partitions)


# -- agreement with the local engine --------------------------------------------------------


# Every such preset on zh-en's system, whose empty hypothesis line is the hard case; sacreBLEU's
# preset on both corpora.
@pytest.mark.parametrize(
    ("name", "pair", "system"),
    [(name, *CORPORA[1]) for name in DASK_PRESETS] + [("sacrebleu", *CORPORA[0])],
)
def test_corpus_score_of_a_bag_and_of_a_dataframe_equals_the_local_one(
    client: Client, name: str, pair: str, system: str
) -> None:
    preset = presets.get(name)
    engine = preset.build()
    hypotheses, references = as_the_preset_reads(preset, *_corpus(pair, system))
    local = engine.corpus_score(hypotheses, references)
    frame = dask.dataframe.from_pandas(
        _frame(hypotheses, references, len(references[0])), npartitions=5
    )
    from_bag = bleu_dask.corpus_score(engine, _bag(hypotheses, references, 7), split_every=2)
    columns = [f"ref{k}" for k in range(len(references[0]))]
    from_frame = bleu_dask.corpus_score(engine, frame, references=columns)
    assert client.compute([from_bag, from_frame], sync=True) == [local, local]


@NLTK_WARNS
@pytest.mark.parametrize("name", DASK_PRESETS)
def test_sentence_scores_as_a_new_column_equal_the_local_ones(client: Client, name: str) -> None:
    preset = presets.get(name)
    engine = preset.build()
    hypotheses, references = as_the_preset_reads(preset, *_corpus(*CORPORA[0]))
    frame = dask.dataframe.from_pandas(
        _frame(hypotheses, references, len(references[0])), npartitions=6
    )
    columns = [f"ref{k}" for k in range(len(references[0]))]
    scored = bleu_dask.sentence_scores(engine, frame, references=columns, column="score")
    computed = client.compute(scored, sync=True)
    local = engine.sentence_scores(hypotheses, references)
    assert computed["score"].tolist() == [result.score for result in local]
    assert computed["hypothesis"].tolist() == hypotheses


def test_a_segment_the_definition_cannot_score_fails_as_it_does_locally(client: Client) -> None:
    # TF NMT's brevity penalty divides by the hypothesis length: an empty one has no score.
    engine = BLEUScore(brevity_penalty=hf_evaluate.NMT())
    hypotheses, references = ["a b", ""], [["a b"], ["c d"]]
    with pytest.raises(InputError) as local:
        engine.sentence_scores(hypotheses, references)
    frame = dask.dataframe.from_pandas(
        _frame(hypotheses, [refs * 2 for refs in references]), npartitions=2
    )
    scored = bleu_dask.sentence_scores(engine, frame, references=["ref0", "ref1"])
    with pytest.raises(InputError, match=r"partition 1: " + re.escape(str(local.value))):
        client.compute(scored, sync=True)


def test_sentence_scores_of_a_bag_keep_its_order(client: Client) -> None:
    engine = BLEUScore.canonical()
    hypotheses, references = _corpus(*CORPORA[0])
    scores = bleu_dask.sentence_scores(engine, _bag(hypotheses, references, 4))
    assert client.compute(scores, sync=True) == [
        result.score for result in engine.sentence_scores(hypotheses, references)
    ]


_words = st.lists(st.sampled_from(["a", "b", "c", "the", "cat"]), max_size=6).map(" ".join)
_segment = st.tuples(_words, st.lists(_words, min_size=1, max_size=3))


@settings(max_examples=50)
@given(
    st.lists(st.lists(_segment, max_size=4), min_size=1, max_size=20).filter(any),
    st.integers(min_value=2, max_value=5),
)
def test_any_partitioning_and_tree_shape_gives_the_local_statistics(
    partitions: list[list[tuple[str, list[str]]]], split_every: int
) -> None:
    engine = BLEUScore.nltk()
    bag = dask.bag.from_delayed([delayed(partition) for partition in partitions])
    stats = bleu_dask.corpus_stats(engine, bag, split_every=split_every)
    segments = [segment for partition in partitions for segment in partition]
    local = engine.count([hypothesis for hypothesis, _ in segments], [refs for _, refs in segments])
    summed = stats.compute(scheduler="sync")
    assert summed == local
    # Fields outside equality that NLTK's definition reads: the tree keeps the order.
    assert summed.empty_orders == local.empty_orders
    assert summed.last == local.last


def _malloc_trim_threshold() -> str | None:
    return os.environ.get("MALLOC_TRIM_THRESHOLD_")


def test_workers_started_with_adaptive_malloc_have_no_trim_threshold(client: Client) -> None:
    # Dask's default sets it to 65536 (see adaptive_malloc for why that is slow here).
    assert set(client.run(_malloc_trim_threshold).values()) == {None}


def test_adaptive_malloc_restores_the_environment_it_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "65536")
    with bleu_dask.adaptive_malloc():
        assert _malloc_trim_threshold() is None
        assert dask.config.get("distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_") is None
    assert _malloc_trim_threshold() == "65536"


def test_results_are_lazy_dask_values() -> None:
    # Nothing runs until computed: a bag whose every item fails still builds a graph.
    failing = dask.bag.from_sequence([1, 2]).map(lambda item: 1 / 0)
    assert isinstance(bleu_dask.corpus_score(BLEUScore(), failing), Delayed)
    assert isinstance(bleu_dask.sentence_scores(BLEUScore(), failing), dask.bag.Bag)


# -- awkward partitions -----------------------------------------------------------------------

EMPTY_LINES = (["", "", "the cat"], [["", "a"], ["b", ""], ["the cat", "a cat"]])


def test_a_partition_of_empty_lines_and_a_partition_of_no_rows(client: Client) -> None:
    engine = BLEUScore.canonical()
    hypotheses, references = _corpus(*CORPORA[0])
    head, tail = (hypotheses[:100], references[:100]), (hypotheses[100:200], references[100:200])
    partitions = [head, EMPTY_LINES, ([], []), tail]
    local = engine.corpus_score(
        head[0] + EMPTY_LINES[0] + tail[0], head[1] + EMPTY_LINES[1] + tail[1]
    )

    bag = dask.bag.from_delayed(
        [delayed(list)(zip(*partition, strict=True)) for partition in partitions]
    )
    frame = dask.dataframe.from_delayed(
        [delayed(_frame)(*partition) for partition in partitions], meta=_frame([], [])
    )
    assert bag.npartitions == frame.npartitions == 4

    bag_result, frame_result = client.compute(
        [
            bleu_dask.corpus_score(engine, bag),
            bleu_dask.corpus_score(engine, frame, references=["ref0", "ref1"]),
        ],
        sync=True,
    )
    assert bag_result == frame_result == local
    assert local.stats.segments == 203
    scored = bleu_dask.sentence_scores(engine, frame, references=["ref0", "ref1"])
    assert client.compute(scored, sync=True)["bleu"].tolist()[100:103] == [0.0, 0.0, 0.0]


def test_a_corpus_of_empty_partitions_only_is_an_error_as_it_is_locally(client: Client) -> None:
    empty = dask.bag.from_sequence([("a", ["a"]), ("b", ["b"])], npartitions=2).filter(bool)
    empty = empty.filter(lambda pair: pair[0] == "no such hypothesis")
    with pytest.raises(InputError, match="empty"):
        client.compute(bleu_dask.corpus_score(BLEUScore(), empty), sync=True)
    with pytest.raises(InputError, match="empty"):
        BLEUScore().corpus_score([], [])


# -- failures -----------------------------------------------------------------------------


def _die_once(marker: str, item: object) -> object:
    """Kill this worker process the first time any worker gets here."""
    try:
        Path(marker).touch(exist_ok=False)
    except FileExistsError:
        return item
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable: the process is dead")


def _fail_once(item: object, marker: str) -> object:
    """Raise a passing error the first time any worker gets here."""
    try:
        Path(marker).touch(exist_ok=False)
    except FileExistsError:
        return item
    raise OSError("a passing failure, e.g. a flaky network file system")


def test_a_worker_killed_mid_computation_does_not_change_the_score(
    client: Client, tmp_path: Path
) -> None:
    engine = BLEUScore.sacrebleu()
    hypotheses, references = _corpus(*CORPORA[0])
    marker = tmp_path / "killed"
    pairs = _bag(hypotheses, references, 8).map(functools.partial(_die_once, str(marker)))
    workers_before = set(client.scheduler_info()["workers"])

    result = client.compute(bleu_dask.corpus_score(engine, pairs), retries=2).result()

    assert marker.exists()
    _assert_sacrebleus(result, *CORPORA[0])
    client.wait_for_workers(2, timeout=60)
    # The nanny replaced the killed worker with a new process at a new address.
    assert set(client.scheduler_info()["workers"]) != workers_before


def test_retries_recover_from_a_task_that_fails_once(client: Client, tmp_path: Path) -> None:
    engine = BLEUScore.sacrebleu()
    hypotheses, references = _corpus(*CORPORA[0])
    # Separate markers, so the two graphs differ and the second does not reuse the error.
    without = _bag(hypotheses, references, 4).map(_fail_once, str(tmp_path / "first"))
    with pytest.raises(OSError, match="passing failure"):
        client.compute(bleu_dask.corpus_score(engine, without), retries=0, sync=True)

    again = _bag(hypotheses, references, 4).map(_fail_once, str(tmp_path / "second"))
    result = client.compute(bleu_dask.corpus_score(engine, again), retries=1, sync=True)
    _assert_sacrebleus(result, *CORPORA[0])


# -- bad input ------------------------------------------------------------------------------


def test_a_missing_text_in_a_dataframe_names_its_row_and_column(client: Client) -> None:
    frame = pd.DataFrame(
        {"hypothesis": ["a", "b", "c"], "ref": ["a", None, "c"]}, index=[10, 11, 12]
    )
    lazy = bleu_dask.corpus_score(
        BLEUScore(), dask.dataframe.from_pandas(frame, npartitions=2), references="ref"
    )
    with pytest.raises(
        InputError, match=r"^partition 0: column 'ref', row 11: the text is missing"
    ):
        client.compute(lazy, sync=True)


def test_a_bad_pair_in_a_bag_names_its_partition(client: Client) -> None:
    pairs = dask.bag.from_sequence([("a", ["a"]), ("b", ["b"]), ("c", "c")], npartitions=2)
    message = r"partition 1: segment 0: references must be a list"
    with pytest.raises(InputError, match=message) as raised:
        client.compute(bleu_dask.corpus_score(BLEUScore(), pairs), sync=True)
    # The fields cross the process boundary with the error.
    assert (raised.value.partition, raised.value.segment) == (1, 0)
    with pytest.raises(InputError, match=message):
        client.compute(bleu_dask.sentence_scores(BLEUScore(), pairs), sync=True)
    with pytest.raises(InputError, match=r"partition 0: segment 1: expected a \(hypothesis, "):
        not_a_pair = dask.bag.from_sequence([("a", ["a"]), "b"], npartitions=1)
        client.compute(bleu_dask.corpus_stats(BLEUScore(), not_a_pair), sync=True)


def test_misconfigured_calls_fail_when_built() -> None:
    frame = dask.dataframe.from_pandas(
        pd.DataFrame({"hypothesis": ["a"], "ref": ["a"], "bleu": [0.0]}), npartitions=1
    )
    with pytest.raises(ConfigurationError, match="references="):
        bleu_dask.corpus_score(BLEUScore(), frame)
    with pytest.raises(ConfigurationError, match="no column 'reference'"):
        bleu_dask.corpus_score(BLEUScore(), frame, references="reference")
    with pytest.raises(ConfigurationError, match="already has a column 'bleu'"):
        bleu_dask.sentence_scores(BLEUScore(), frame, references="ref")
    with pytest.raises(ConfigurationError, match="Dask bag or a Dask DataFrame"):
        bleu_dask.corpus_score(BLEUScore(), [("a", ["a"])])  # type: ignore[arg-type]


# -- files ----------------------------------------------------------------------------------


def test_files_scored_on_a_cluster_equal_the_local_score(client: Client) -> None:
    engine = BLEUScore.russian()  # measures lengths in characters: whitespace matters
    folder = require_shared("data", "wmt22", CORPORA[1][0])
    hypotheses, references = _corpus(*CORPORA[1])
    paths = (folder / f"sys.{CORPORA[1][1]}.txt", [folder / "ref.A.txt", folder / "ref.B.txt"])
    result = bleu_dask.corpus_score_files(
        engine, *paths, scheduler=client.scheduler.address, lines_per_partition=300
    )
    assert result == engine.corpus_score(hypotheses, references)
    by_sacrebleu = bleu_dask.corpus_score_files(
        BLEUScore.sacrebleu(), *paths, scheduler=client, lines_per_partition=700
    )
    _assert_sacrebleus(by_sacrebleu, *CORPORA[1])
    # A connected client is used as it is, and stays open.
    stripped = bleu_dask.corpus_score_files(engine, *paths, scheduler=client, rstrip=True)
    assert client.status == "running"
    assert stripped == engine.corpus_score(
        [line.rstrip() for line in hypotheses],
        [[reference.rstrip() for reference in refs] for refs in references],
    )


def test_files_changed_in_place_are_read_again(client: Client, tmp_path: Path) -> None:
    # Tasks of equal keys are computed once: a cluster still holding an earlier read of the
    # same byte ranges must not give it again once a file has changed (same size, new words).
    hypotheses, references = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    for path in (hypotheses, references):
        path.write_text("a b c\nd e f\n", encoding="utf-8")
    earlier = client.persist(bleu_dask.read_corpus(hypotheses, [references]))
    assert earlier.compute(scheduler=client)[0] == ("a b c", ["a b c"])
    hypotheses.write_text("x y z\nd e f\n", encoding="utf-8")
    changed = hypotheses.stat()
    os.utime(hypotheses, ns=(changed.st_atime_ns, changed.st_mtime_ns + 10**9))  # (a tick on)
    again = client.persist(bleu_dask.read_corpus(hypotheses, [references]))
    assert again.compute(scheduler=client)[0] == ("x y z", ["a b c"])
    engine = BLEUScore.sacrebleu()
    score = bleu_dask.corpus_score_files(engine, hypotheses, [references], scheduler=client)
    assert score == engine.corpus_score(["x y z", "d e f"], [["a b c"], ["d e f"]])
    del earlier, again


@pytest.mark.parametrize("lines_per_partition", [1, 2, 3, 4, 100])
def test_reading_files_in_partitions_keeps_every_line(
    tmp_path: Path, lines_per_partition: int
) -> None:
    hypothesis = tmp_path / "hyp.txt"
    reference = tmp_path / "ref.txt"
    hypothesis.write_bytes("one\r\n\ntrois \u00a0\nvier\u00a0x\n".encode())
    reference.write_bytes(b"1\n2\n3\n4")  # no final newline
    pairs = bleu_dask.read_corpus(hypothesis, [reference], lines_per_partition=lines_per_partition)
    assert pairs.npartitions == -(-4 // lines_per_partition)
    assert pairs.compute(scheduler="sync") == [
        ("one\r", ["1"]),
        ("", ["2"]),
        ("trois \u00a0", ["3"]),
        ("vier\u00a0x", ["4"]),
    ]
    stripped = bleu_dask.read_corpus(
        hypothesis, [reference], lines_per_partition=lines_per_partition, rstrip=True
    )
    assert stripped.compute(scheduler="sync") == [
        ("one", ["1"]),
        ("", ["2"]),
        ("trois", ["3"]),
        ("vier\u00a0x", ["4"]),
    ]


def test_reading_files_checks_alignment_and_encoding(tmp_path: Path) -> None:
    hypothesis, reference, empty = tmp_path / "hyp.txt", tmp_path / "ref.txt", tmp_path / "e.txt"
    hypothesis.write_bytes(b"a\nb\n\xffc\n")
    reference.write_bytes(b"a\nb\n")
    empty.write_bytes(b"")
    with pytest.raises(InputError, match=r"hyp\.txt has 3 lines but .*ref\.txt has 2"):
        bleu_dask.read_corpus(hypothesis, [reference])
    reference.write_bytes(b"a\nb\nc\n")
    pairs = bleu_dask.read_corpus(hypothesis, [reference], lines_per_partition=2)
    # Line 3 is in the second partition: numbered in the whole file.
    with pytest.raises(
        InputError, match=r"hyp\.txt:3: not valid UTF-8 \(byte 1 of the line is 0xff\)$"
    ) as raised:
        pairs.compute(scheduler="sync")
    assert (raised.value.path, raised.value.line) == (str(hypothesis), 3)
    assert bleu_dask.read_corpus(empty, [empty]).compute(scheduler="sync") == []
    with pytest.raises(InputError, match=r"absent\.txt: no such file$"):
        bleu_dask.read_corpus(tmp_path / "absent.txt", [reference])


def test_importing_without_dask_says_what_to_install() -> None:
    # A fresh interpreter in which dask cannot be imported.
    program = "import sys; sys.modules['dask'] = None; import bleuprint.dask"
    completed = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=False
    )
    assert completed.returncode == 1
    assert "ImportError: bleuprint.dask needs" in completed.stderr
    assert "pip install '.[dask]' (from the repository's root)" in completed.stderr


def test_importing_without_pandas_says_what_to_install_when_collections_are_used() -> None:
    # Scoring files needs no pandas; a collection's function does.
    program = (
        "import sys; sys.modules['pandas'] = None; import bleuprint.dask as d; "
        "print(d.corpus_score_files.__name__); d.corpus_score"
    )
    completed = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=False
    )
    assert (completed.returncode, completed.stdout) == (1, "corpus_score_files\n")
    assert "ImportError: bleuprint.dask needs Dask's distributed scheduler and pandas" in (
        completed.stderr
    )
    assert "(cannot import pandas)" in completed.stderr


_SCORE_FILES_ON_A_NEW_CLUSTER = """
import sys
from distributed import Client, LocalCluster
from bleuprint import BLEUScore
from bleuprint.dask import adaptive_malloc, corpus_score_files

def loaded():
    return [name for name in ("pandas", "dask.dataframe") if name in sys.modules]

with adaptive_malloc():
    cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                           host="127.0.0.1", dashboard_address=None)
with cluster, Client(cluster) as client:
    result = corpus_score_files(BLEUScore.sacrebleu(), sys.argv[1], [sys.argv[2]],
                                scheduler=client, lines_per_partition=1)
    print(result.stats.matches, loaded(), list(client.run(loaded).values()))
"""


def test_scoring_files_loads_pandas_neither_on_the_client_nor_on_the_workers(
    tmp_path: Path,
) -> None:
    # (Importing pandas and dask.dataframe costs a worker about 0.6 s of CPU on its first
    # task, and tens of megabytes.) A fresh interpreter, with a cluster of its own.
    (tmp_path / "hyp.txt").write_text("the cat sat\na dog\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("the cat sat down\na dog\n", encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-c", _SCORE_FILES_ON_A_NEW_CLUSTER, "hyp.txt", "ref.txt"],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    # 5 of 5 words match, 3 of 3 pairs, 1 of 1 triple (one pair has no 4-gram).
    assert completed.stdout == "(5, 3, 1, 0) [] [[]]\n"


@settings(max_examples=60)
@given(
    st.lists(st.text(st.sampled_from("ab \r\u00a0é"), max_size=5), max_size=12),
    st.booleans(),
    st.integers(min_value=1, max_value=5),
    st.integers(min_value=1, max_value=7),
    st.booleans(),
)
def test_partitions_of_a_file_hold_its_lines_in_order_whatever_the_block_size(
    texts: list[str], final_newline: bool, lines_per_partition: int, block: int, rstrip: bool
) -> None:
    data = "\n".join(texts) + ("\n" if final_newline and texts else "")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "lines.txt")
        path.write_bytes(data.encode())
        # Tiny read blocks put newlines on every side of a block boundary.
        with mock.patch.object(_io.LineLayout, "BLOCK", block):
            pairs = bleu_dask.read_corpus(
                path, [path], lines_per_partition=lines_per_partition, rstrip=rstrip
            )
        read = pairs.compute(scheduler="sync")
    lines = data.split("\n")
    if lines[-1] == "":  # what follows the final newline, or an empty file
        lines.pop()
    if rstrip:
        lines = [line.rstrip() for line in lines]
    assert read == [(line, [line]) for line in lines]


# -- the command line -----------------------------------------------------------------------


def _bleuprint(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bleuprint.cli", *arguments],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


@pytest.mark.parametrize("output", [["-f", "json"], ["-f", "text"], ["-f", "tsv", "-w", "4"]])
def test_score_with_dask_prints_what_score_prints(client: Client, output: list[str]) -> None:
    folder = require_shared("data", "wmt22", CORPORA[0][0])
    command = [
        "score",
        "-q",
        *output,
        "-r",
        str(folder / "ref.A.txt"),
        str(folder / "ref.B.txt"),
        "-i",
        str(folder / "sys.Online-B.txt"),
        str(folder / "sys.Online-A.txt"),
    ]
    local = _bleuprint(*command)
    assert local.returncode == 0, local.stderr
    on_cluster = _bleuprint(*command, "--dask", client.scheduler.address)
    assert (on_cluster.returncode, on_cluster.stdout) == (0, local.stdout)


def test_score_with_dask_local_starts_its_own_cluster(tmp_path: Path) -> None:
    # Trailing whitespace and CRLF, which the command drops, under a definition that
    # measures lengths in characters.
    (tmp_path / "hyp.txt").write_bytes(b"the cat sat on the mat  \r\na dog\r\n")
    (tmp_path / "ref.txt").write_bytes(b"the cat sat on a mat\na dog \n")
    command = [
        "score",
        "-q",
        "-f",
        "text",
        "--preset",
        "russian",
        "-r",
        str(tmp_path / "ref.txt"),
        "-i",
        str(tmp_path / "hyp.txt"),
    ]
    local = _bleuprint(*command)
    assert local.returncode == 0, local.stderr
    on_cluster = _bleuprint(*command, "--dask", "local")
    assert (on_cluster.returncode, on_cluster.stdout) == (0, local.stdout)


def test_score_with_dask_refuses_what_it_cannot_do(client: Client, tmp_path: Path) -> None:
    (tmp_path / "hyp.txt").write_text("a\n", encoding="utf-8")
    files = ["-r", str(tmp_path / "hyp.txt"), "-i", str(tmp_path / "hyp.txt")]
    address = client.scheduler.address
    for extra in (["--sentence-level"], ["--confidence"]):
        completed = _bleuprint("score", *files, *extra, "--dask", address)
        assert completed.returncode == 2
        assert completed.stdout == ""
        assert "--dask scores corpora of files" in completed.stderr
    from_stdin = _bleuprint("score", "-r", str(tmp_path / "hyp.txt"), "--dask", address)
    compressed = _bleuprint("score", "-r", "ref.gz", *files[2:], "--dask", address)
    for completed in (from_stdin, compressed):
        assert (completed.returncode, completed.stdout) == (2, "")
        assert "--dask reads plain text files" in completed.stderr
    for nowhere in ("no-port", "tcp://no-such-host.invalid:8786"):
        completed = _bleuprint("score", *files, "--dask", nowhere)
        assert (completed.returncode, completed.stdout) == (2, "")
        assert completed.stderr.startswith(
            f"bleuprint: error: cannot connect to the Dask scheduler {nowhere!r}: "
        )
        assert completed.stderr.count("\n") == 1
