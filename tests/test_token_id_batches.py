"""Token ids as a training loop has them (issue 26): padded 2-D batches and labels padded
with -100, read with ``pad_id=`` / ``ignore_index=`` / ``eos_id=`` by ``update``, ``compute``
and the reward; a warning where ids that are almost surely padding are counted; a 2-D array of
references told what to pass; a float tensor that requires grad refused in one line.

Expected scores come from sacreBLEU (``tokenize="none"``) and NLTK run on the unpadded ids
written as words, never from bleuprint.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import sacrebleu
from nltk.translate.bleu_score import sentence_bleu

from bleuprint import BLEUScore, InputError, PaddingWarning, TokenIds
from bleuprint.rewards import bleu_reward

PAD, EOS, IGNORE = 0, 2, -100
WIDTH = 24


def sequences(seed: int, count: int = 16) -> tuple[list[list[int]], list[list[int]]]:
    """Hypotheses and one reference each (ids 4.., edited copies: they share n-grams)."""
    rng = np.random.default_rng(seed)
    hypotheses, references = [], []
    for _ in range(count):
        reference = rng.integers(4, 30, rng.integers(4, WIDTH - 4))
        hypothesis = reference.copy()
        changed = rng.random(len(hypothesis)) < 0.25
        hypothesis[changed] = rng.integers(4, 30, changed.sum())
        hypotheses.append(hypothesis[: len(hypothesis) - rng.integers(0, 3)].tolist())
        references.append(reference.tolist())
    return hypotheses, references


HYPOTHESES, REFERENCES = sequences(0)


def generated(rows: list[list[int]]) -> np.ndarray[Any, Any]:
    """As ``generate`` gives them: each row, its eos, then padding."""
    batch = np.full((len(rows), WIDTH), PAD)
    for number, row in enumerate(rows):
        batch[number, : len(row) + 1] = [*row, EOS]
    return batch


def labels(rows: list[list[int]]) -> np.ndarray[Any, Any]:
    """As a data collator gives them: each row, then -100."""
    batch = np.full((len(rows), WIDTH), IGNORE)
    for number, row in enumerate(rows):
        batch[number, : len(row)] = row
    return batch


def words(ids: list[int]) -> str:
    return " ".join(f"w{token}" for token in ids)


def nltk_sentence(hypothesis: list[int], reference: list[int]) -> float:
    return float(sentence_bleu([reference], hypothesis, weights=(0.5, 0.5)))


class ArrayLike:
    """A CPU tensor seen through ``__array__`` and ``__len__``, as torch offers them."""

    def __init__(self, array: np.ndarray[Any, Any]) -> None:
        self._array = array

    @property
    def ndim(self) -> int:
        return self._array.ndim

    def __len__(self) -> int:
        return len(self._array)

    def __getitem__(self, index: Any) -> ArrayLike:
        return ArrayLike(self._array[index])

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray[Any, Any]:
        return self._array


def test_update_reads_a_padded_batch_without_its_padding() -> None:
    expected = sacrebleu.corpus_bleu(
        [words(row) for row in HYPOTHESES],
        [[words(row) for row in REFERENCES]],
        tokenize="none",
        smooth_method="none",
    )
    for form in (np.asarray, ArrayLike):
        metric = BLEUScore.canonical().accumulator()
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # the padding named: no warning
            for start in (0, 8):  # two batches
                rows = slice(start, start + 8)
                metric.update(
                    form(generated(HYPOTHESES[rows])),
                    form(labels(REFERENCES[rows])[:, None, :]),
                    pad_id=PAD,
                    ignore_index=IGNORE,
                    eos_id=EOS,
                )
        result = metric.compute()
        assert result.score * 100 == pytest.approx(expected.score, abs=1e-9)
        # Exactly the statistics of the unpadded lists: nothing of the padding is counted.
        unpadded = BLEUScore.canonical().count(HYPOTHESES, [[row] for row in REFERENCES])
        assert metric.stats == unpadded
        assert (result.hypothesis_length, result.reference_length) == (
            expected.sys_len,
            expected.ref_len,
        )


def test_compute_reads_one_padded_row() -> None:
    bleu = BLEUScore.canonical(max_n=2)
    hypotheses, references = generated(HYPOTHESES), labels(REFERENCES)
    for number in range(len(HYPOTHESES)):
        expected = nltk_sentence(HYPOTHESES[number], REFERENCES[number])
        score = bleu.compute(
            hypotheses[number], [references[number]], pad_id=PAD, ignore_index=IGNORE, eos_id=EOS
        )
        assert score == pytest.approx(expected, rel=1e-12)
    # A reference of padding only is no reference (it would be the closest length, 0).
    score = bleu.compute([5, 6, 7, 0], [[5, 6, 7, 8], [0, 0, 0, 0]], pad_id=0)
    assert score == pytest.approx(nltk_sentence([5, 6, 7], [5, 6, 7, 8]))


def test_the_reward_reads_padded_ids() -> None:
    reward = bleu_reward(
        BLEUScore.canonical(max_n=2),
        hypotheses="completion_ids",
        references="labels",
        eos=EOS,
        pad_id=PAD,
        ignore_index=IGNORE,
    )
    rewards = reward(
        ["..."] * len(HYPOTHESES),
        completion_ids=generated(HYPOTHESES),
        labels=labels(REFERENCES),
    )
    expected = [nltk_sentence(h, r) for h, r in zip(HYPOTHESES, REFERENCES)]
    assert rewards == pytest.approx(expected, rel=1e-12)


def test_counted_padding_warns() -> None:
    bleu = BLEUScore.canonical(max_n=2)
    references = [[row] for row in REFERENCES]
    with pytest.warns(PaddingWarning, match=r"id 0 ends every row of this \(16, 24\) batch"):
        bleu.corpus_score(generated(HYPOTHESES), references)
    with pytest.warns(PaddingWarning, match="id -100 .* is counted as a token: name the padding"):
        bleu.corpus_score(HYPOTHESES, labels(REFERENCES)[:, None, :])
    with pytest.warns(PaddingWarning, match="id -100"):
        bleu.compute(HYPOTHESES[0], [labels(REFERENCES)[0]])
    with pytest.warns(PaddingWarning, match="id -100"):  # lists, as tolist() gives them
        bleu.sentence_scores(HYPOTHESES, [[row] for row in labels(REFERENCES).tolist()])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bleu.corpus_score(HYPOTHESES, references)  # no padding
        bleu.corpus_score(TokenIds(generated(HYPOTHESES), pad=PAD, eos=EOS), references)
        # Rows of one length that end alike once (an end-of-sequence id, a full stop): tokens.
        bleu.corpus_score([[5, 6, 2], [7, 8, 2]], [[[5, 6, 2]], [[7, 9, 2]]])
        bleu.corpus_score(np.array([[5, 6, 2], [7, 8, 2]]), [[[5, 6, 2]], [[7, 9, 2]]])


def test_a_2d_reference_array_is_told_what_to_pass() -> None:
    bleu = BLEUScore.canonical(max_n=2)
    hypotheses, references = generated(HYPOTHESES), labels(REFERENCES)
    told = r"a 2-D array of ids, one row per segment.*references\[:, None, :\]"
    for call in (
        lambda: bleu.corpus_score(hypotheses, references),
        lambda: bleu.sentence_scores(hypotheses, references),
        lambda: bleu.accumulator().update(hypotheses, references, pad_id=PAD),
    ):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PaddingWarning)
            with pytest.raises(InputError, match=told) as raised:
                call()
        assert "TokenIds" not in str(raised.value)


def test_padding_keywords_check_what_they_are_given() -> None:
    bleu = BLEUScore.canonical(max_n=2)
    with pytest.raises(InputError, match="pad_id must be an integer id, got '0'"):
        bleu.compute([5, 6], [[5, 6]], pad_id="0")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="TokenIds, which say their own padding"):
        bleu.compute(TokenIds([5, 6, 0], pad=0), [[5, 6]], pad_id=0)
    with pytest.raises(InputError, match=r"the hypothesis .*apply to token ids"):
        bleu.compute("a b", ["a b"], pad_id=0)


class GradTensor:
    """A float torch tensor that requires grad, through the protocol bleuprint meets it by:
    conversions fail until ``.detach()``; ``.cpu()`` gives the same kind of tensor back."""

    def __init__(self, array: np.ndarray[Any, Any], requires_grad: bool = True) -> None:
        self._array, self.requires_grad = array, requires_grad

    @property
    def ndim(self) -> int:
        return self._array.ndim

    def _checked(self) -> np.ndarray[Any, Any]:
        if self.requires_grad:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead."
            )
        return self._array

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray[Any, Any]:
        return self._checked()

    def numpy(self) -> np.ndarray[Any, Any]:
        return self._checked()

    def cpu(self) -> GradTensor:
        return GradTensor(self._array, self.requires_grad)

    def detach(self) -> GradTensor:
        return GradTensor(self._array, requires_grad=False)


def test_a_float_tensor_that_requires_grad_gets_the_one_line_error() -> None:
    bleu = BLEUScore.canonical(max_n=2)
    floats = np.array([5.0, 6.0, 7.0])
    messages = set()
    for tensor in (GradTensor(floats), GradTensor(floats, requires_grad=False)):
        for call in (
            lambda given=tensor: bleu.compute(given, [[5, 6, 7]]),
            lambda given=tensor: bleu.sentence_scores([given], [[[5, 6, 7]]]),
            lambda given=tensor: bleu.accumulator().update([given], [[[5, 6, 7]]]),
        ):
            with pytest.raises(InputError) as raised:
                call()
            messages.add(str(raised.value))
    assert messages == {
        "segment 0: the hypothesis must be an array of 1 to 3 dimensions of integer ids, got "
        "numbers of dtype float64, not integer token ids"
    }
    # An integer tensor read the same way scores (detached first).
    assert bleu.compute(GradTensor(np.array([5, 6, 7])), [[5, 6, 7]]) == 1.0


def test_a_real_torch_tensor_that_requires_grad() -> None:
    torch = pytest.importorskip("torch")
    bleu = BLEUScore.canonical(max_n=2)
    logits = torch.tensor([5.0, 6.0, 7.0], requires_grad=True)
    with pytest.raises(InputError, match="numbers of dtype float32, not integer token ids"):
        bleu.compute(logits, [[5, 6, 7]])
