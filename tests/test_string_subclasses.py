"""A ``str`` subclass is a string token (or a text) everywhere, scored as its str value
(issue 30): ``numpy.str_`` (a list made from a numpy array of words, a pandas column) and a
user's subclass that hashes, compares and prints its own way.

Expected scores come from NLTK and sacreBLEU run on the plain str values. The in-process tests
run on the kernel the run chose (CI runs them on both); ``test_both_kernels_in_children``
runs the same calls on each kernel in a child process of its own.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from typing import Any

import numpy as np
import pandas as pd
import pytest
import sacrebleu
from nltk.translate.bleu_score import corpus_bleu, sentence_bleu

from bleuprint import BLEUScore

HYPOTHESES = ["the cat sat on the mat", "a dog ran in the park today", "it is raining"]
REFERENCES = [  # two each: sacreBLEU's streams are these read across
    ["the cat sat on a mat", "a cat was on the mat"],
    ["the dog ran in a park today", "a dog was running in the park"],
    ["it is raining again", "it rains"],
]

STREAMS = [list(stream) for stream in zip(*REFERENCES)]


class Odd(str):
    """A str subclass that hashes, compares and prints unlike its value."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return 0

    def __str__(self) -> str:
        return "odd"

    def split(self, *arguments: Any, **keywords: Any) -> Any:  # type: ignore[override]
        return ["odd"]


def nltk_sentence(hypothesis: str, references: list[str], max_n: int = 2) -> float:
    weights = (1 / max_n,) * max_n
    return float(
        sentence_bleu([ref.split() for ref in references], hypothesis.split(), weights=weights)
    )


def tokens_of(texts: list[str], kind: type) -> list[list[Any]]:
    if kind is np.str_:
        return [list(np.array(text.split())) for text in texts]
    return [[kind(token) for token in text.split()] for text in texts]


def reference_tokens(kind: type) -> list[list[list[Any]]]:
    return [tokens_of(refs, kind) for refs in REFERENCES]


KINDS = [pytest.param(np.str_, id="numpy.str_"), pytest.param(Odd, id="odd-subclass")]


@pytest.mark.parametrize("kind", KINDS)
def test_subclass_tokens_score_as_their_str_values(kind: type) -> None:
    bleu = BLEUScore.canonical(max_n=2)
    hypotheses, references = tokens_of(HYPOTHESES, kind), reference_tokens(kind)
    assert type(hypotheses[0][0]) is kind
    expected_corpus = corpus_bleu(
        [[ref.split() for ref in refs] for refs in REFERENCES],
        [hypothesis.split() for hypothesis in HYPOTHESES],
        weights=(0.5, 0.5),
    )
    expected = [nltk_sentence(h, refs) for h, refs in zip(HYPOTHESES, REFERENCES)]
    assert bleu.corpus_score(hypotheses, references).score == pytest.approx(expected_corpus)
    assert bleu.sentence_scores(hypotheses, references).scores.tolist() == pytest.approx(expected)
    for number, (hypothesis, refs) in enumerate(zip(hypotheses, references)):
        assert bleu.sentence_score(hypothesis, refs).score == pytest.approx(expected[number])
    # Mixed: the hypotheses plain, the references of the subclass, and the other way round.
    plain = tokens_of(HYPOTHESES, str)
    assert bleu.corpus_score(plain, references).score == pytest.approx(expected_corpus)
    assert bleu.corpus_score(hypotheses, reference_tokens(str)).score == pytest.approx(
        expected_corpus
    )


@pytest.mark.parametrize("kind", KINDS)
def test_subclass_candidates_score_pairwise_and_in_mbr(kind: type) -> None:
    bleu = BLEUScore.canonical(max_n=2)
    candidates = ["the cat sat on the mat", "the cat sat on a mat", "a cat sat on the mat"]
    expected = [[nltk_sentence(row, [column]) for column in candidates] for row in candidates]
    for group in (tokens_of(candidates, kind), [kind(text) for text in candidates]):
        if kind is Odd and isinstance(group[0], str):
            continue  # a text is tokenized by its str value's split, not the subclass's
        (matrix,) = bleu.pairwise_scores([group])
        for row, expected_row in zip(matrix.tolist(), expected):
            assert row == pytest.approx(expected_row)
        (choice,) = bleu.mbr([group])
        means = [(sum(row) - row[k]) / 2 for k, row in enumerate(expected)]
        assert choice.utilities.tolist() == pytest.approx(means)
        (aggregated,) = bleu.mbr([group], mode="aggregate")
        assert aggregated.index == int(np.argmax(means))


def test_numpy_and_pandas_texts_score_as_sacrebleu() -> None:
    expected = sacrebleu.corpus_bleu(HYPOTHESES, STREAMS).score
    references = REFERENCES
    bleu = BLEUScore.sacrebleu()
    for hypotheses in (list(np.array(HYPOTHESES)), list(pd.Series(HYPOTHESES, dtype=object))):
        numpy_references = [list(np.array(refs)) for refs in references]
        score = 100 * bleu.corpus_score(hypotheses, numpy_references).score
        assert score == pytest.approx(expected)
    hypotheses = list(np.array(HYPOTHESES))
    assert type(hypotheses[0]) is np.str_
    sentence = sacrebleu.sentence_bleu(HYPOTHESES[0], references[0]).score
    score = 100 * bleu.sentence_score(hypotheses[0], list(np.array(references[0]))).score
    assert score == pytest.approx(sentence)


def test_a_subclass_text_is_tokenized_as_its_value() -> None:
    # The tokenizer is given the str value: Odd's own split (one "odd" token) is never called.
    bleu = BLEUScore.sacrebleu(tokenize="13a")
    hypotheses = [Odd(text) for text in HYPOTHESES]
    references = [[Odd(ref) for ref in refs] for refs in REFERENCES]
    expected = sacrebleu.corpus_bleu(HYPOTHESES, STREAMS).score
    assert 100 * bleu.corpus_score(hypotheses, references).score == pytest.approx(expected)


CHILD = """
import json, sys
import numpy as np
from bleuprint import BLEUScore, _kernels
hypotheses, references, candidates = json.loads(sys.stdin.read())
words = lambda text: list(np.array(text.split()))
bleu = BLEUScore.canonical(max_n=2)
hyp = [words(h) for h in hypotheses]
refs = [[words(r) for r in rs] for rs in references]
print(json.dumps({
    "kernel": _kernels.KERNEL,
    "corpus": bleu.corpus_score(hyp, refs).score,
    "sentences": bleu.sentence_scores(hyp, refs).scores.tolist(),
    "sentence": bleu.sentence_score(hyp[0], refs[0]).score,
    "pairwise": bleu.pairwise_scores([[words(c) for c in candidates]])[0].tolist(),
    "texts": BLEUScore.sacrebleu().corpus_score(list(np.array(hypotheses)),
                                                [list(np.array(r)) for r in references]).score,
}))
"""


@pytest.mark.parametrize("pure", ["1", "0"])
# NLTK, the oracle, warns of the unmatched bigrams of one pair.
@pytest.mark.filterwarnings(r"ignore:\s*The hypothesis contains 0 counts of 2-gram:UserWarning")
def test_both_kernels_in_children(pure: str) -> None:
    candidates = HYPOTHESES
    given = json.dumps([HYPOTHESES, REFERENCES, candidates])
    run = subprocess.run(
        [sys.executable, "-c", CHILD],
        input=given,
        env={**os.environ, "BLEUPRINT_PURE_PYTHON": pure},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    shown = json.loads(run.stdout)
    if pure == "1":
        assert shown["kernel"] == "python"
    expected = [nltk_sentence(h, refs) for h, refs in zip(HYPOTHESES, REFERENCES)]
    assert shown["sentences"] == pytest.approx(expected)
    assert shown["sentence"] == pytest.approx(expected[0])
    assert shown["corpus"] == pytest.approx(
        corpus_bleu(
            [[ref.split() for ref in refs] for refs in REFERENCES],
            [h.split() for h in HYPOTHESES],
            weights=(0.5, 0.5),
        )
    )
    pairwise = [[nltk_sentence(row, [column]) for column in candidates] for row in candidates]
    for row, expected_row in zip(shown["pairwise"], pairwise):
        assert row == pytest.approx(expected_row)
    assert math.isclose(100 * shown["texts"], sacrebleu.corpus_bleu(HYPOTHESES, STREAMS).score)
