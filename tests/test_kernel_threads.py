"""Several Python threads calling the kernel at once, while its counting is threaded too
(issue 28): every call gives what it gives alone. The compiled kernel releases the GIL while it
tokenizes built-in tokenizers' texts and while it counts (docs/guarantees.md, "The compiled
kernel"), so these calls truly overlap. CI runs this file again under ThreadSanitizer with
``BLEUPRINT_THREADS`` from 1 to 8 (``.ci/sanitized thread``), where any data race fails."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest

from bleuprint import BLEUScore, _counting
from tests.conftest import NLTK_WARNS

CALLERS = 4


def _corpus(seed: int, size: int) -> tuple[list[str], list[list[str]]]:
    """Distinct lines (no two calls share a vocabulary, so a shared table would show)."""
    generator = random.Random(seed)
    words = [f"w{seed}x{index}" for index in range(300)] + [".", ",", "the", "a"]

    def line() -> str:
        return " ".join(generator.choices(words, k=generator.randrange(30)))

    hypotheses = [line() for _ in range(size)]
    references = [[line(), line()] for _ in range(size)]
    return hypotheses, references


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Chunks of 64 segments: a corpus of a thousand is counted by the pool's threads in many
    chunks, fast enough to run under ThreadSanitizer."""
    monkeypatch.setattr(_counting, "CHUNK_SEGMENTS", 64)
    yield


def _at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    with ThreadPoolExecutor(max_workers=CALLERS) as pool:
        return list(pool.map(lambda call: call(), calls))


SIZE = 1000


@NLTK_WARNS
@pytest.mark.parametrize("preset", ["sacrebleu", "canonical", "nltk"])
def test_corpora_counted_from_several_threads_count_as_alone(preset: str) -> None:
    engine = BLEUScore.preset(preset)
    corpora = [_corpus(seed, SIZE) for seed in range(CALLERS)]
    calls = [lambda corpus=corpus: engine.corpus_score(*corpus) for corpus in corpora]
    alone = [call() for call in calls]
    assert _at_once(calls * 2) == alone * 2


def test_sentence_scores_and_token_ids_from_several_threads_as_alone() -> None:
    engine = BLEUScore.sacrebleu()
    hypotheses, references = _corpus(7, SIZE)
    ids = [np.array([hash(word) % 5000 for word in text.split()], np.int64) for text in hypotheses]
    reference_ids = [[ids[(index + 1) % len(ids)]] for index in range(len(ids))]
    calls: list[Callable[[], Any]] = [
        lambda: list(engine.sentence_scores(hypotheses, references).scores),
        lambda: BLEUScore.canonical().corpus_score(ids, reference_ids),
        lambda: list(engine.pairwise_scores([hypotheses[:300]])[0].flat),
        lambda: [engine.sentence_score(h, r).score for h, r in zip(hypotheses[:500], references)],
    ]
    alone = [call() for call in calls]
    assert _at_once(calls * 2) == alone * 2


def test_a_vocabulary_in_use_is_refused_not_shared() -> None:
    # A vocabulary's table is claimed for each call with the GIL held; a second call into it
    # while the first runs (here from the first's own callback, which makes the overlap
    # certain) is refused rather than writing into the same table. The claim is let go.
    compiled = pytest.importorskip("bleuprint._kernels._compiled")
    vocabulary = compiled.Vocabulary()

    class Reentrant:
        def __hash__(self) -> int:
            vocabulary.intern_texts(["a b"], "13a", None)
            return 1

    with pytest.raises(RuntimeError, match="a Vocabulary is used by one thread at a time"):
        vocabulary.intern_texts(["x"], None, lambda texts: [[Reentrant()]])
    ids, lengths = vocabulary.intern_texts(["a b a"], "13a", None)
    assert (ids.tolist(), lengths.tolist()) == ([0, 1, 0], [3])
