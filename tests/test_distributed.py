"""bleuprint.distributed under a real two-process ``torch.distributed`` group (``gloo`` on
localhost): the metric's and the synced accumulator's scores on every rank equal the score of
the whole corpus in one process, and, where a peer is the reference, the peer's own number."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torchmetrics")

from bleuprint import Accumulator, BLEUScore
from bleuprint.distributed import BLEUMetric, synced

WORKER = Path(__file__).with_name("distributed_worker.py")
# sacreBLEU's and NLTK's sums, NLTK's last-segment smoothing (method 7), and the exact
# big-integer sums of a sentence-mean aggregation (ignite) and of GLEU.
PRESETS = ("sacrebleu", "nltk", "ignite", "gleu")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def corpus(shared: Callable[..., Path]) -> tuple[list[str], list[list[str]]]:
    folder = shared("data", "wmt22", "de-en")
    hypotheses = (folder / "sys.Online-B.txt").read_text(encoding="utf-8").splitlines()[:301]
    references = (folder / "ref.A.txt").read_text(encoding="utf-8").splitlines()[:301]
    return hypotheses, [[reference] for reference in references]


@pytest.fixture(scope="module")
def ranks(corpus: tuple[list[str], list[list[str]]], tmp_path_factory: Any) -> list[Any]:
    """What each of the two processes printed."""
    data = tmp_path_factory.mktemp("distributed") / "corpus.json"
    data.write_text(json.dumps(corpus), encoding="utf-8")
    port = str(_free_port())
    workers = [
        subprocess.Popen(
            [sys.executable, str(WORKER), str(rank), "2", port, str(data), ",".join(PRESETS)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for rank in range(2)
    ]
    outputs = []
    for worker in workers:
        stdout, stderr = worker.communicate(timeout=240)
        assert worker.returncode == 0, stderr
        outputs.append(json.loads(stdout))
    return outputs


@pytest.mark.parametrize("preset", PRESETS)
def test_every_rank_scores_the_whole_corpus_exactly(
    preset: str, ranks: list[Any], corpus: tuple[list[str], list[list[str]]]
) -> None:
    hypotheses, references = corpus
    whole = getattr(BLEUScore, preset)().corpus_score(hypotheses, references).score
    for rank in ranks:
        assert rank[preset] == {"metric": whole, "synced": whole, "segments": len(hypotheses)}


def test_the_distributed_sacrebleu_score_is_sacrebleus(
    ranks: list[Any], corpus: tuple[list[str], list[list[str]]]
) -> None:
    import sacrebleu  # noqa: PLC0415

    hypotheses, references = corpus
    expected = sacrebleu.corpus_bleu(hypotheses, [[r[0] for r in references]]).score
    assert ranks[0]["sacrebleu"]["metric"] * 100 == pytest.approx(expected, rel=1e-12)


def test_the_distributed_nltk_score_is_nltks(
    ranks: list[Any], corpus: tuple[list[str], list[list[str]]]
) -> None:
    from nltk.translate.bleu_score import corpus_bleu  # noqa: PLC0415

    hypotheses, references = corpus
    expected = corpus_bleu([[r[0].split()] for r in references], [h.split() for h in hypotheses])
    assert ranks[1]["nltk"]["metric"] == expected


def test_in_one_process_the_metric_is_the_accumulator() -> None:
    """Without a process group: updates and torchmetrics' ``forward`` (which merges each
    batch's state into the running one) give the accumulator's result."""
    engine = BLEUScore.nltk()
    batches = [
        (["a b c d e"], [["a b c d f"]]),
        (["x y z w v"], [["x y z w v"]]),
        (["q r s t"], [["q r s t u"]]),
    ]
    metric, accumulator = BLEUMetric(engine), engine.accumulator()
    for hypotheses, references in batches:
        metric(hypotheses, references)
        accumulator.update(hypotheses, references)
    assert metric.result() == accumulator.compute()
    assert float(metric.compute()) == accumulator.compute().score
    assert synced(accumulator).compute() == accumulator.compute()
    metric.reset()
    with pytest.raises(Exception, match="no segment"):
        metric.result()


def test_synced_is_a_copy_of_the_accumulator() -> None:
    engine = BLEUScore.sacrebleu()
    accumulator = engine.accumulator()
    accumulator.update(["The cat sat."], [["The cat sat on the mat."]])
    copy = synced(accumulator)
    assert isinstance(copy, Accumulator) and copy is not accumulator
    assert copy.compute() == accumulator.compute()
