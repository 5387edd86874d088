"""Minimum-Bayes-risk decoding and self-BLEU with BLEU as the utility.

MBR decoding picks, from a group of candidates (samples of one source), the one with the
highest expected utility against the others taken as pseudo-references. :func:`mbr` scores it
two ways:

- ``mode="exact"``: a candidate's utility is the (weighted) mean of its sentence BLEU against
  each pseudo-reference as the only reference, from the engine's pairwise scores (one
  counting pass per group; quadratic in the group's size);
- ``mode="aggregate"``: reference aggregation (DeNero et al., 2009, "Fast consensus decoding
  over translation forests"; Vamvas & Sennrich, 2024, "Linear-time minimum Bayes risk decoding
  with reference aggregation"): each candidate is scored once, against the (weighted) mean of
  the pseudo-references' n-gram counts and the mean of their lengths; linear in the group's
  size. The mean of BLEU is not the BLEU of the mean, so the choice can differ from the exact
  one; see ``docs/howto/training.md`` for how often on real data.

Both take the same configuration as the engine (parts, smoothing, weights). Aggregation needs
counting parts with array support (every counting part bleuprint ships has it), and gives the
matcher the expected counts: clipped matching credits ``min(count, expected count)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs
import numpy as np

from bleuprint import _pairwise
from bleuprint._counting import ArrayCounting, Counting, candidate_tokens
from bleuprint._kernels import kernel
from bleuprint._segments import SegmentStats
from bleuprint.exceptions import ConfigurationError, InputError, counted
from bleuprint.typing import FloatArray, PairwiseScorer, Segment

__all__ = ["MBRChoice", "mbr", "self_bleu"]

MODES = ("exact", "aggregate")


@attrs.frozen(eq=False)
class MBRChoice:
    """The decision for one group: the chosen candidate's ``index`` (the first of the highest
    utility) and every candidate's expected utility, in [0, 1] (``nan`` where a candidate has
    no pseudo-reference of positive weight)."""

    index: int
    utilities: FloatArray


def mbr(
    engine: PairwiseScorer[Counting],
    groups: Sequence[Sequence[Segment]],
    *,
    mode: str = "exact",
    reference_weights: Sequence[Sequence[float]] | None = None,
    include_self: bool = False,
) -> list[MBRChoice]:
    """For each group of candidates, the candidate of highest expected BLEU against the others.

    ``reference_weights[g][j]`` weighs candidate ``j`` of group ``g`` as a pseudo-reference
    (model probabilities, counts of repeated samples; by default all 1). With
    ``include_self=True`` a candidate is also its own pseudo-reference, as in MBR over samples
    drawn from the model. ``mode`` is ``"exact"`` or ``"aggregate"`` (see the module).

    >>> from bleuprint import BLEUScore
    >>> bleu = BLEUScore.canonical(max_n=1)
    >>> choice, = bleu.mbr([["a b", "a c", "a b c"]])
    >>> choice.index, choice.utilities.round(4).tolist()  # the rows of pairwise_scores, averaged
    (2, [0.5533, 0.5533, 0.6667])
    >>> aggregated, = bleu.mbr([["a b", "a c", "a b c"]], mode="aggregate")
    >>> aggregated.utilities.round(4).tolist()  # "a b": 1.5 of 2 matched, BP = exp(1 - 2.5 / 2)
    [0.5841, 0.5841, 0.6667]
    """
    if mode not in MODES:
        raise ConfigurationError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    groups = list(groups)
    weights = _weights(groups, reference_weights)
    for number, group in enumerate(groups):
        if not group:
            raise InputError(f"group {number} has no candidate")
    if mode == "exact":
        matrices = _pairwise.pairwise_scores(engine, groups)
        utilities = _mean_rows(matrices, weights, include_self)
    else:
        utilities = [
            _aggregate_utilities(engine, number, group, w, include_self)
            for number, (group, w) in enumerate(zip(groups, weights))
        ]
    return [MBRChoice(_first_best(values), values) for values in utilities]


def self_bleu(engine: PairwiseScorer[Counting], samples: Sequence[Segment]) -> float:
    """Self-BLEU (Zhu et al., 2018, Texygen): the mean over the samples of each one's sentence
    BLEU against all the others as its references. Near 1, the samples repeat each other;
    near 0, they share few n-grams. (Texygen scores with NLTK's ``sentence_bleu`` and
    ``method1``: ``BLEUScore.nltk(method=1)``.)

    >>> from bleuprint import BLEUScore
    >>> bleu = BLEUScore.canonical(max_n=1)
    >>> bleu.self_bleu(["a b", "a b", "c d"])  # 1, 1 and 0
    0.6666666666666666
    """
    samples = list(samples)
    if len(samples) < 2:
        raise InputError(f"self-BLEU needs at least 2 samples, got {len(samples)}")
    others = [samples[:index] + samples[index + 1 :] for index in range(len(samples))]
    return float(engine.score_segments(engine.count_segments(samples, others)).scores.mean())


def _weights(
    groups: list[Sequence[Segment]], reference_weights: Sequence[Sequence[float]] | None
) -> list[FloatArray]:
    if reference_weights is None:
        return [np.ones(len(group)) for group in groups]
    if len(reference_weights) != len(groups):
        raise InputError(
            f"{counted(len(reference_weights), 'list')} of reference weights for "
            f"{counted(len(groups), 'group')}"
        )
    arrays = []
    for number, (group, given) in enumerate(zip(groups, reference_weights)):
        values = np.asarray(given, dtype=np.float64)
        if values.shape != (len(group),):
            raise InputError(
                f"group {number} has {counted(len(group), 'candidate')} but its reference "
                f"weights have shape {values.shape}"
            )
        if not np.all(np.isfinite(values)) or np.any(values < 0):
            raise InputError(
                f"the reference weights of group {number} must be finite and non-negative, "
                f"got {values.tolist()}"
            )
        arrays.append(values)
    return arrays


def _mean_rows(
    matrices: list[FloatArray], weights: list[FloatArray], include_self: bool
) -> list[FloatArray]:
    """Each group's candidates' weighted mean scores against their pseudo-references: the
    groups of one size at once (a few numpy calls for each group would cost more than the
    pairwise scores of a small one)."""
    utilities = [np.empty(0)] * len(matrices)
    of_size: dict[int, list[int]] = {}
    for number, matrix in enumerate(matrices):
        of_size.setdefault(len(matrix), []).append(number)
    for size, numbers in of_size.items():
        scores = np.stack([matrices[number] for number in numbers])  # (group, row, column)
        # pseudo[g, i, j]: the weight of candidate j as a pseudo-reference of candidate i
        pseudo = np.repeat(np.stack([weights[number] for number in numbers])[:, None], size, 1)
        if not include_self:
            pseudo[:, np.arange(size), np.arange(size)] = 0.0
        mass = pseudo.sum(axis=2)
        means = np.full(mass.shape, math.nan)
        np.divide((scores * pseudo).sum(axis=2), mass, out=means, where=mass > 0)
        for number, row in zip(numbers, means):
            utilities[number] = row
    return utilities


def _aggregate_utilities(
    engine: PairwiseScorer[Counting],
    number: int,
    group: Sequence[Segment],
    weights: FloatArray,
    include_self: bool,
) -> FloatArray:
    """Each candidate's sentence BLEU against the mean n-gram counts and the mean length of
    its pseudo-references, all candidates in one pass."""
    arrays = ArrayCounting.of(engine.counting)
    if arrays is None:
        raise ConfigurationError(
            "mode='aggregate' needs counting parts with array support (ngrams, matching and "
            "lengths fitting the Array* protocols of bleuprint.typing); use mode='exact'"
        )
    laid = candidate_tokens(arrays, list(group), f"group {number}: candidate")
    if laid is None:
        raise InputError(
            f"the candidates of group {number} must all be text, all lists of string tokens "
            "or all token ids"
        )
    token_ids, token_counts, lengths = laid
    parts, size = arrays.parts, len(token_counts)
    own = 0.0 if include_self else 1.0
    mass = weights.sum() - own * weights  # each candidate's pseudo-reference weight in all
    matches = []
    for streams, labels in kernel.ngram_labels(token_ids, token_counts, parts.ngrams.max_n):
        # Each distinct (candidate, n-gram) once, with its count.
        label_count = int(labels.max(initial=-1)) + 1
        cells, counts = np.unique(streams * label_count + labels, return_counts=True)
        stream, label = np.divmod(cells, label_count)
        weighted = np.bincount(label, weights=weights[stream] * counts, minlength=label_count)
        with np.errstate(invalid="ignore", divide="ignore"):
            expected = (weighted[label] - own * weights[stream] * counts) / mass[stream]
        credit = parts.matching.credit_array(counts, expected)
        matches.append(np.bincount(stream, weights=credit, minlength=size))
    with np.errstate(invalid="ignore", divide="ignore"):
        reference_lengths = (weights @ lengths - own * weights * lengths) / mass
    stats = SegmentStats(
        np.stack(matches, axis=-1).reshape(size, parts.ngrams.max_n),
        parts.ngrams.order_totals_array(token_counts),
        lengths,
        reference_lengths,
        np.ones(size, np.int64),
        parts.signature,
    )
    valid = mass > 0
    utilities = np.full(size, math.nan)
    if valid.any():
        utilities[valid] = engine.score_segments(stats.take(np.flatnonzero(valid))).scores
    return utilities


def _first_best(utilities: FloatArray) -> int:
    """The first index of the highest utility (``nan`` ranks lowest; 0 if all are)."""
    return int(np.where(np.isnan(utilities), -math.inf, utilities).argmax())
