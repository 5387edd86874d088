"""The parts behind the compatibility presets, pinned by hand-computed cases, and the laws
that keep their quirks out of the canonical definitions."""

from __future__ import annotations

import math
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleuprint import (
    BLEUScore,
    BLEUStats,
    ConfigurationError,
    InputError,
    StatisticsMismatchError,
    brevity,
    matching,
    presets,
    smoothing,
    tokenizers,
    weights,
)
from bleuprint.compat import fast_bleu, hf_evaluate, nltk, torchmetrics

WORD = st.sampled_from(["a", "b", "c", "the", "cat"])
SENTENCE = st.lists(WORD, max_size=8)


class TestNLTKStatistics:
    def test_segments_without_ngrams_add_up(self) -> None:
        bleu = BLEUScore.nltk(weights=(1 / 3,) * 3)
        stats = bleu.count([["a", "b"], ["a"], ["a", "b", "c"]], [[["a"]], [["a"]], [["a"]]])
        # Orders 2 and 3: "a" has neither, "a b" has no trigram.
        assert isinstance(stats, nltk.NLTKStats)
        assert stats.empty_orders == (0, 1, 2)

    def test_last_segment_is_the_final_one_added(self) -> None:
        bleu = BLEUScore.nltk(weights=(0.5, 0.5))
        _, second = bleu.count_segments([["a"], ["b", "c"]], [[["a"]], [["b"]]])
        both = bleu.count([["a"], ["b", "c"]], [[["a"]], [["b"]]])
        assert both.last == second
        assert (both + bleu.empty_stats()).last == second
        assert (bleu.empty_stats() + both).last == second
        alone = bleu.count([["a"]], [[["a"]]])
        assert (alone + bleu.count([["b", "c"]], [[["b"]]])).last == second

    def test_the_extra_fields_do_not_change_equality(self) -> None:
        bleu = BLEUScore.nltk(weights=(0.5, 0.5))
        # The same sums, but the last segment and the segments without bigrams differ.
        one_way = bleu.count([["a", "b"], ["c"]], [[["a", "b"]], [["c"]]])
        other_way = bleu.count([["c"], ["a", "b"]], [[["c"]], [["a", "b"]]])
        assert one_way.last != other_way.last
        assert one_way == other_way

    def test_plain_sums_of_several_segments_are_refused(self) -> None:
        bleu = BLEUScore.nltk(weights=(0.5, 0.5))
        plain = bleu.count_segments([["a"], ["b"]], [[["a"]], [["b"]]]).total()
        with pytest.raises(StatisticsMismatchError, match="nltk preset"):
            bleu.score(plain)


class TestWeights:
    def test_explicit_weights_are_taken_as_given(self) -> None:
        stats = BLEUStats((1, 1, 1), (1, 1, 1), 3, 3)
        assert weights.Explicit((2, 1))(stats, [1.0, 1.0, 1.0]) == [2.0, 1.0, 0.0]

    @pytest.mark.parametrize("values", [(), (0, 0), (0.5, -0.5), (math.nan,), (math.inf, 1)])
    def test_explicit_weights_refuse_nonsense(self, values: tuple[float, ...]) -> None:
        with pytest.raises(ConfigurationError, match="values"):
            weights.Explicit(values)

    def test_more_explicit_weights_than_orders(self) -> None:
        with pytest.raises(InputError, match="3 weights given but only 2 orders"):
            weights.Explicit((1, 1, 1))(BLEUStats((1, 1), (1, 1), 2, 2), [1.0, 1.0])

    def test_nltk_weights_accept_negative_values_and_drop_undefined_orders(self) -> None:
        stats = BLEUStats((2, 1, 0), (3, 2, 1), 3, 3)
        assert nltk.NLTKWeights((1, -1, 0.5))(stats, [2 / 3, 0.5, None]) == [1.0, -1.0, 0.0]

    def test_auto_reweigh_only_the_default_and_only_below_four_tokens(self) -> None:
        short = BLEUStats((3, 2, 1, 0), (3, 2, 1, 0), 3, 3)
        long = BLEUStats((4, 3, 2, 1), (4, 3, 2, 1), 4, 4)
        precisions = [1.0, 1.0, 1.0, 0.1]
        third = 1 / 3
        assert nltk.NLTKWeights(auto_reweigh=True)(short, precisions) == [third, third, third, 0.0]
        assert nltk.NLTKWeights(auto_reweigh=True)(long, precisions) == [0.25] * 4
        custom = nltk.NLTKWeights((0.4, 0.3, 0.2, 0.1), auto_reweigh=True)
        assert custom(short, precisions) == [0.4, 0.3, 0.2, 0.1]


class TestSmoothing:
    def test_add_one_with_and_without_unigrams(self) -> None:
        stats = BLEUStats((5, 3, 1, 0), (6, 5, 4, 3), 6, 6)
        assert smoothing.AddOne()(stats) == [5 / 6, 4 / 6, 2 / 5, 1 / 4]
        assert smoothing.AddOne(unigrams=True)(stats) == [6 / 7, 4 / 6, 2 / 5, 1 / 4]

    def test_require_all_matched_zeroes_everything(self) -> None:
        stats = BLEUStats((5, 3, 1, 0), (6, 5, 4, 3), 6, 6)
        assert torchmetrics.RequireAllMatched(smoothing.AddOne())(stats) == [0.0] * 4
        matched = BLEUStats((5, 3, 1, 1), (6, 5, 4, 3), 6, 6)
        expected = [5 / 6, 4 / 6, 2 / 5, 2 / 4]
        assert torchmetrics.RequireAllMatched(smoothing.AddOne())(matched) == expected

    def test_nltk_denominators_count_a_segment_without_ngrams_as_one(self) -> None:
        bleu = BLEUScore.nltk()
        stats = bleu.count([["a", "b"], ["a", "b", "c", "d"]], [[["a", "b"]], [["a", "b", "c"]]])
        # Trigrams: none in "a b" (counts 1) and 2 in "a b c d": denominator 3.
        assert nltk.nltk_fractions(stats) == [(5, 6), (3, 4), (1, 3), (0, 2)]

    def test_nltk_method0_gives_the_smallest_float_not_zero(self) -> None:
        stats = BLEUStats((2, 1, 0), (2, 1, 0), 2, 2)
        assert nltk.NLTKMethod0()(stats) == [1.0, 1.0, sys.float_info.min]

    def test_nltk_methods_give_zero_when_no_unigram_matches(self) -> None:
        stats = BLEUStats((0, 0, 0, 0, 0), (4, 3, 2, 1, 0), 4, 4)
        for method in range(8):
            assert nltk.nltk_method(method)(stats) == [0.0] * (4 if method in (5, 7) else 5)

    def test_nltk_method3_halves_per_unmatched_order(self) -> None:
        stats = BLEUStats((6, 2, 0, 0), (9, 8, 7, 6), 9, 9)
        assert nltk.NLTKMethod3()(stats) == [6 / 9, 2 / 8, 1 / 14, 1 / 24]

    def test_nltk_method4_with_one_token_leaves_unmatched_orders_out(self) -> None:
        stats = BLEUStats((1, 0), (1, 0), 1, 3)  # one segment, without bigrams
        assert nltk.NLTKMethod4()(stats) == [1.0, None]

    def test_nltk_method5_averages_with_neighbours(self) -> None:
        # One segment, p = (1, 1/2, 0/1, 0/1) and 5-gram 0/1: previous starts at p1 + 1 = 2.
        stats = BLEUStats(
            (2, 1, 0, 0, 0),
            (2, 2, 0, 0, 0),
            2,
            2,  # one segment, without 3- to 5-grams
        )
        first = (2 + 1 + 0.5) / 3
        second = (first + 0.5 + 0) / 3
        third = (second + 0 + 0) / 3
        assert nltk.NLTKMethod5()(stats) == [first, second, third, third / 3]

    def test_nltk_method5_needs_five_counted_orders(self) -> None:
        with pytest.raises(InputError, match="reads 5-gram counts"):
            nltk.NLTKMethod5()(BLEUStats((1, 1, 1, 1), (1, 1, 1, 1), 4, 4))

    def test_nltk_method6_needs_a_trigram_match(self) -> None:
        stats = BLEUStats((6, 2, 0, 0), (9, 8, 7, 6), 9, 9)
        with pytest.raises(InputError, match="nonzero trigram precision"):
            nltk.NLTKMethod6()(stats)

    def test_unknown_nltk_method(self) -> None:
        with pytest.raises(ConfigurationError, match=r"0\.\.7"):
            nltk.nltk_method("method8")

    def test_replace_zero_and_reject_zero(self) -> None:
        stats = BLEUStats((2, 0, 0), (2, 1, 0), 2, 2)
        assert smoothing.ReplaceZero(1e-9)(stats) == [1.0, 1e-9, 1e-9]
        with pytest.raises(InputError, match="2-gram precision is 0"):
            smoothing.RejectZero()(stats)


class TestOtherParts:
    def test_codepoints_keep_spaces(self) -> None:
        assert tokenizers.Codepoints()("a b") == ["a", " ", "b"]

    def test_space_joined_matching_merges_colliding_ngrams(self) -> None:
        extract = BLEUScore.canonical(max_n=2).ngrams
        hypothesis, reference = extract(["x", "a", "b c"]), extract(["x", "a b", "c"])
        # Unigrams: only "x" matches; bigrams: "a b c" matches "a b c".
        assert fast_bleu.SpaceJoined()(hypothesis, [reference], 2) == [1, 1]
        assert matching.Clipped()(hypothesis, [reference], 2) == [1, 0]

    def test_space_joined_matching_still_clips(self) -> None:
        hypothesis = Counter({("a",): 3})
        assert fast_bleu.SpaceJoined()(hypothesis, [Counter({("a",): 2})], 1) == [2]

    def test_nmt_penalty_refuses_zero_lengths(self) -> None:
        assert hf_evaluate.NMT()(4, 4) == 1.0
        assert hf_evaluate.NMT()(2, 6) == pytest.approx(math.exp(-2), rel=1e-15)
        for lengths in [(0, 3), (3, 0)]:
            with pytest.raises(InputError, match="divides by both"):
                hf_evaluate.NMT()(*lengths)

    def test_nltk_penalty_of_an_empty_hypothesis(self) -> None:
        assert nltk.NLTKExponential()(0, 0) == 0.0
        assert nltk.NLTKExponential()(3, 6) == brevity.Exponential()(3, 6)


class TestPresets:
    def test_token_list_presets_split_text_on_whitespace(self) -> None:
        for bleu in [BLEUScore.nltk(), BLEUScore.fast_bleu(), BLEUScore.distancia()]:
            assert bleu.tokenizer == tokenizers.Whitespace()
        characters = BLEUScore.nltk(tokenizer=tokenizers.Codepoints())
        assert characters.compute("abcd", ["abcd"]) == 1.0

    @pytest.mark.parametrize(
        "name", ["nltk", "torchmetrics", "hf-evaluate", "bleuscore", "fast-bleu", "distancia"]
    )
    def test_signature_rebuilds_the_preset(self, name: str) -> None:
        bleu = presets.get(name).build()
        assert BLEUScore.from_signature(str(bleu.signature())) == bleu

    def test_signature_rebuilds_torchmetrics_sacrebleu(self) -> None:
        bleu = BLEUScore.torchmetrics(tokenize="intl", lowercase=True, smooth=True)
        assert BLEUScore.from_signature(str(bleu.signature())) == bleu

    def test_torchmetrics_lowercases_after_tokenizing(self) -> None:
        # "İ" lowercases to "i" and a combining dot: two characters before tokenizing, one
        # token after it.
        after = BLEUScore.torchmetrics(tokenize="char", lowercase=True).tokenizer
        assert after("İa") == ["i\u0307", "a"]
        assert tokenizers.Lowercase(tokenizers.Chars())("İa") == ["i", "\u0307", "a"]

    def test_torchmetrics_unknown_tokenizer(self) -> None:
        with pytest.raises(ConfigurationError, match="flores"):
            BLEUScore.torchmetrics(tokenize="flores200")

    def test_hf_evaluate_and_bleuscore_differ_on_empty_text(self) -> None:
        with pytest.raises(InputError, match="divides by both"):
            BLEUScore.hf_evaluate().compute("", ["test"])
        assert BLEUScore.bleuscore().compute("", ["test"]) == 0.0

    def test_hf_evaluate_uses_the_shortest_reference(self) -> None:
        # 4 tokens against references of 5 and 1: the shortest (1) means no penalty.
        assert BLEUScore.hf_evaluate(max_order=1).compute("a b c d", ["a b c d e", "a"]) == 1.0

    def test_nltk_counts_five_orders_for_methods_5_and_7(self) -> None:
        assert BLEUScore.nltk(method=5).max_n == 5
        assert BLEUScore.nltk((0.5, 0.5), method=7).max_n == 5
        assert BLEUScore.nltk((0.5, 0.5), method=4).max_n == 2

    def test_nltk_method6_with_two_orders_is_refused(self) -> None:
        with pytest.raises(ConfigurationError, match="method6 needs at least 3 orders"):
            BLEUScore.nltk((0.5, 0.5), method=6)

    def test_torchmetrics_weights_must_match_the_order(self) -> None:
        with pytest.raises(ConfigurationError, match="one weight per order"):
            BLEUScore.torchmetrics(n_gram=2, weights=(1.0,))

    @pytest.mark.parametrize(
        ("weight_set", "message"), [((1.0,), "2 or more orders"), ((0.6, 0.6), "sum to 1")]
    )
    def test_fast_bleu_weights(self, weight_set: tuple[float, ...], message: str) -> None:
        with pytest.raises(ConfigurationError, match=message):
            BLEUScore.fast_bleu(weight_set)

    def test_score_weights_equals_scoring_with_each(self) -> None:
        bleu = BLEUScore.nltk(method=2)
        stats = bleu.count([["a", "b", "c", "d"]], [[["a", "b", "c", "e"]]])
        sets = [nltk.NLTKWeights((0.5, 0.5)), nltk.NLTKWeights((1 / 3,) * 3), nltk.NLTKWeights()]
        results = bleu.score_weights(stats, sets)
        for part, result in zip(sets, results, strict=True):
            alone = BLEUScore.nltk(part.values, method=2, ngrams=bleu.ngrams).score(stats)
            assert result == alone
            assert f"weights:{part.signature}" in str(result.signature)


@given(SENTENCE, st.lists(SENTENCE, min_size=1, max_size=3))
def test_canonical_precisions_are_untouched_by_the_nltk_quirks(
    hypothesis: list[str], references: list[list[str]]
) -> None:
    """The canonical preset's precisions are the plain ratios, undefined orders stay None,
    and a zero precision makes the score exactly 0 (never NLTK's tiny number)."""
    bleu = BLEUScore.canonical()
    stats = bleu.count_segments([hypothesis], [references])[0]
    precisions = bleu.smoothing(stats)
    assert precisions == [m / t if t else None for m, t in zip(stats.matches, stats.totals)]
    if not all(precisions):
        assert bleu.score(stats).score == 0.0


def test_the_comparison_page_lists_every_preset_with_its_parts() -> None:
    """The docs' table of parts stays what the presets are (a drift check, not a definition)."""
    page = (Path(__file__).parent.parent / "docs" / "definitions" / "compared.md").read_text()
    section = page.split("## Every part, at the default options")[1].split("\n## ")[0]
    header, _, *rows = [line for line in section.splitlines() if line.startswith("|")]
    families = [cell.strip() for cell in header.strip("|").split("|")][1:]
    listed = set()
    for row in rows:
        name, *parts = [cell.strip().strip("`") for cell in row.strip("|").split("|")]
        listed.add(name)
        assert dict(zip(families, parts)) == dict(presets.get(name).build().signature().parts)
    compared = {"canonical", "unigram", "russian", "sacrebleu", "sacrebleu-sentence", "nltk"}
    compared |= {"torchmetrics", "hf-evaluate", "bleuscore", "fast-bleu", "distancia"}
    assert listed == compared
