"""fairseq's bleu scorer: every case of ``circulation_vectors.json`` (real ``libbleu.cpp`` on
token ids) through the preset, a hand computation of its trimming and hashing, and sacreBLEU
on the same ids written as text where no hash collides."""

from __future__ import annotations

from typing import Any

import pytest
import sacrebleu

from bleuprint import BLEUResult, BLEUScore, ConfigurationError, InputError, TokenIds
from bleuprint.compat.fairseq import as_tokens, fnv_hash

from .conftest import CIRCULATION, circulation_cases, require_shared

# fairseq sums log precisions and divides by 4; bleuprint weighs each log by 1/4.
ROUNDING = 1e-13


def _corpus(case: dict[str, Any]) -> tuple[list[list[str]], list[list[list[str]]]]:
    ids = case["token_ids"]
    hypotheses = [as_tokens(sequence) for sequence in ids["hypotheses"]]
    references = [[as_tokens(sequence) for sequence in refs] for refs in ids["references"]]
    return hypotheses, references


@pytest.mark.parametrize("case", circulation_cases("fairseq bleu Scorer"))
def test_scorer(case: dict[str, Any] | None) -> None:
    if case is None:
        require_shared(*CIRCULATION)
        return
    _assert_libbleus(BLEUScore.fairseq(**case["options"]).corpus_score(*_corpus(case)), case)


@pytest.mark.parametrize("form", ["lists of ints", "TokenIds"])
@pytest.mark.parametrize("case", circulation_cases("fairseq bleu Scorer"))
def test_scorer_on_ids_given_as_ints(case: dict[str, Any] | None, form: str) -> None:
    """Ids given as ints (lists, or TokenIds without options: fairseq trims them itself) reach
    the fairseq parts as the original ids, and score as libbleu did."""
    if case is None:
        require_shared(*CIRCULATION)
        return
    ids = case["token_ids"]
    hypotheses, references = ids["hypotheses"], ids["references"]
    if form == "TokenIds":
        hypotheses, references = TokenIds(hypotheses), TokenIds(references)
    bleu = BLEUScore.fairseq(**case["options"])
    _assert_libbleus(bleu.corpus_score(hypotheses, references), case)


def _assert_libbleus(result: BLEUResult, case: dict[str, Any]) -> None:
    """The result holds libbleu's recorded statistics, score, precisions and brevity penalty."""
    expected = case["expected"]
    stat = expected["stat"]
    one = int(case["options"]["one_init"])  # reset(one_init=True) starts orders 2-4 at 1
    assert list(result.matches) == [stat[f"match{n}"] - (n > 1) * one for n in range(1, 5)]
    assert list(result.totals) == [stat[f"count{n}"] - (n > 1) * one for n in range(1, 5)]
    assert (result.hypothesis_length, result.reference_length) == (stat["predlen"], stat["reflen"])
    assert 100 * result.score == pytest.approx(expected["score"], rel=ROUNDING, abs=ROUNDING)
    assert list(result.precisions) == pytest.approx(expected["precisions"], rel=ROUNDING)
    assert result.brevity_penalty == pytest.approx(expected["bp"], rel=ROUNDING)


def test_trimming_and_unk_by_hand() -> None:
    """libbleu: leading pads and trailing eos/pads go, index 0 stays, a reference's unk never
    matches, an eos inside stays a token."""
    bleu = BLEUScore.fairseq(pad=0, eos=9, unk=7)
    stats = bleu.count([as_tokens([0, 0, 4, 9, 5, 7, 9, 0])], [[as_tokens([4, 9, 5, 7, 9])]])
    # both sides: 4 9 5 7; the reference's 7 is unk: matches 3/4, 2/3, 1/2, 0/1
    assert (stats.matches, stats.totals) == ((3, 2, 1, 0), (4, 3, 2, 1))
    empty = bleu.count([as_tokens([9])], [[as_tokens([9, 0])]])  # empty lines keep their eos
    assert (empty.matches, empty.totals, empty.hypothesis_length) == ((1, 0, 0, 0), (1, 0, 0, 0), 1)
    assert BLEUScore.fairseq(one_init=True).score(empty).score == 1.0  # (1/1 * 1/1 * 1/1 * 1/1)


def test_hash_collisions_by_hand() -> None:
    """FNV-1a over signed chars: 32510 is bytes fe 7e 00 00, 32768 is 00 80 00 00."""
    assert fnv_hash([32510]) == fnv_hash([32768])
    assert fnv_hash([126, 250]) == fnv_hash([128, 4])
    assert fnv_hash([5, 6]) != fnv_hash([6, 5])
    stats = BLEUScore.fairseq().count(["126 250 5 2"], [["128 4 5 2"]])
    assert stats.matches == (1, 1, 1, 0)  # exact counting would give (1, 0, 0, 0)


def _trim(ids: list[int], pad: int, eos: int) -> list[int]:
    """libbleu.cpp's bleu_trim, written from its source: leading pads off, then trailing eos
    and pads, down to index 0 at most."""
    start = next((i for i, token in enumerate(ids) if token != pad), len(ids))
    ids = ids[start:]
    end = len(ids) - 1
    while end > 0 and ids[end] in (pad, eos):
        end -= 1
    return ids[: end + 1]


@pytest.mark.parametrize("case", circulation_cases("fairseq bleu Scorer"))
def test_sacrebleu_on_the_same_ids_as_text(case: dict[str, Any] | None) -> None:
    """Where fairseq's hashes do not collide (no quirk note says they do), its BLEU is
    sacreBLEU's without smoothing (with one_init: add-k, k = 1) on the trimmed ids as text,
    a reference's unk written as -999."""
    if case is None:
        require_shared(*CIRCULATION)
        return
    if any("hash collision" in note for note in case.get("quirk") or []):
        pytest.skip("fairseq's hashes collide in this case: sacreBLEU counts exactly")
    options, ids = case["options"], case["token_ids"]

    def text(sequence: list[int], reference: bool) -> str:
        trimmed = _trim(sequence, options["pad"], options["eos"])
        return " ".join(str(-999 if reference and i == options["unk"] else i) for i in trimmed)

    one_init = options["one_init"]
    expected = sacrebleu.corpus_bleu(
        [text(sequence, False) for sequence in ids["hypotheses"]],
        [[text(refs[0], True) for refs in ids["references"]]],
        tokenize="none",
        smooth_method="add-k" if one_init else "none",
        smooth_value=1 if one_init else None,
    )
    result = BLEUScore.fairseq(**options).corpus_score(*_corpus(case))
    assert 100 * result.score == pytest.approx(expected.score, rel=1e-12, abs=1e-12)
    assert result.reference_length == expected.ref_len


def test_options_and_input_are_checked() -> None:
    with pytest.raises(ConfigurationError, match="pad must be an integer id"):
        BLEUScore.fairseq(pad="1")
    with pytest.raises(ConfigurationError, match="one_init must be True or False"):
        BLEUScore.fairseq(one_init=1)
    with pytest.raises(InputError, match="32-bit integer token ids; got the token 'the'"):
        BLEUScore.fairseq().compute("the cat", ["the cat"])
    with pytest.raises(InputError, match="one reference per hypothesis, got 2"):
        BLEUScore.fairseq().compute("5 6", ["5 6", "5 7"])


def test_an_unk_marked_by_token_ids_is_refused_with_the_presets_own_option() -> None:
    bleu = BLEUScore.fairseq(pad=1, eos=2, unk=3)
    with pytest.raises(InputError, match=r"give BLEUScore.fairseq\(unk=...\) the id"):
        bleu.corpus_score(TokenIds([[4, 5, 3, 2]], unk=3), [[[4, 5, 6, 2]]])
