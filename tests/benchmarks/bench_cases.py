"""The benchmark's cases: each a function of its input, imported by name in a fresh process.

Each tool is imported inside its case, in the measured process, so that a peer that is not
installed only skips its own rows. Scores are returned on the 0-100 scale, as the peers give
them, so that :mod:`bench` can check that they agree.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# -- corpus BLEU ---------------------------------------------------------------------------------


def one_each(references: list[str]) -> list[tuple[str]]:
    """One reference per segment, as bleuprint takes them: tuples made by ``zip`` in C (a
    million one-element lists would cost CPython's garbage collector about 0.4 s here)."""
    return list(zip(references))


def bleuprint_corpus(tokenize: str, data: Any) -> float:
    from bleuprint import BLEUScore  # noqa: PLC0415 (imported in the measured process)

    hypotheses, references = data
    engine = BLEUScore() if tokenize == "none" else BLEUScore.sacrebleu(tokenize=tokenize)
    return 100 * engine.corpus_score(hypotheses, one_each(references)).score


def sacrebleu_corpus(tokenize: str, data: Any) -> float:
    import sacrebleu  # noqa: PLC0415

    hypotheses, references = data
    return float(sacrebleu.corpus_bleu(hypotheses, [references], tokenize=tokenize).score)


def mojo_corpus(tokenize: str, data: Any) -> float:
    """sacrebleu-mojo, in its side environment (it needs Python 3.12 or newer)."""
    import sacrebleu_mojo  # noqa: PLC0415

    if not sacrebleu_mojo.native_available():
        raise RuntimeError("sacrebleu-mojo's native kernel did not load (pure-Python fallback)")
    hypotheses, references = data
    return float(sacrebleu_mojo.corpus_bleu(hypotheses, [references], tokenize=tokenize).score)


def bleuscore_corpus(data: Any) -> float:
    import bleuscore  # noqa: PLC0415

    hypotheses, references = data
    references = [[reference] for reference in references]
    result: Any = bleuscore.compute(references, hypotheses, ref_len_method="closest")
    return 100 * float(result["bleu"])


def bleuprint_nltk_corpus(data: Any) -> float:
    from bleuprint import BLEUScore  # noqa: PLC0415

    hypotheses, references = data
    engine = BLEUScore.nltk()  # NLTK's definition differs from canonical BLEU: see its page
    return 100 * engine.corpus_score(hypotheses, one_each(references)).score


def nltk_corpus(data: Any) -> float:
    from nltk.translate.bleu_score import corpus_bleu  # noqa: PLC0415

    hypotheses, references = data
    tokenized_references = [[reference.split()] for reference in references]
    return 100 * float(corpus_bleu(tokenized_references, [text.split() for text in hypotheses]))


def bleuprint_chrf(word_order: int, data: Any) -> float:
    from bleuprint.compat import sacrebleu  # noqa: PLC0415

    hypotheses, references = data
    return (
        sacrebleu.chrf(word_order=word_order).corpus_score(hypotheses, one_each(references)).points
    )


def sacrebleu_chrf(word_order: int, data: Any) -> float:
    import sacrebleu  # noqa: PLC0415

    hypotheses, references = data
    metric = sacrebleu.metrics.CHRF(word_order=word_order)
    return float(metric.corpus_score(hypotheses, [references]).score)


def split_only(data: Any) -> None:
    for texts in data:
        for text in texts:
            text.split()


# -- sentence BLEU -------------------------------------------------------------------------------


def bleuprint_sentences(data: Any) -> Any:
    from bleuprint import BLEUScore  # noqa: PLC0415

    hypotheses, references = data
    bleu = BLEUScore.sacrebleu_sentence()
    return 100 * bleu.sentence_scores(hypotheses, one_each(references)).scores


def bleuprint_score_array(results: Any) -> Any:
    """The scores as the docs advise reading them: the ``.scores`` array."""
    return 100 * results.scores


def bleuprint_score_items(results: Any) -> Any:
    """The scores as a user's loop reads them, one item's ``.score`` at a time (issue 26: at
    most 1 us an item)."""
    return [100 * result.score for result in results]


def sacrebleu_sentences(data: Any) -> Any:
    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415

    hypotheses, references = data
    bleu = BLEU(effective_order=True)  # what sacrebleu.sentence_bleu computes: 13a, exp
    pairs = zip(hypotheses, references, strict=True)
    return np.array(
        [bleu.sentence_score(hypothesis, [reference]).score for hypothesis, reference in pairs]
    )


def bleuprint_rewards(batches: Any) -> Any:
    from bleuprint.rewards import bleu_reward  # noqa: PLC0415

    reward = bleu_reward(scale=100)  # sacreBLEU's sentence_bleu, on its 0-100 scale
    return np.concatenate(
        [reward(completions, references=references) for completions, references in batches]
    )


def sacrebleu_rewards(batches: Any) -> Any:
    """The reward functions written for TRL today: ``sacrebleu.sentence_bleu`` per sample."""
    import sacrebleu  # noqa: PLC0415

    return np.array(
        [
            sacrebleu.sentence_bleu(completion, [reference]).score
            for completions, references in batches
            for completion, reference in zip(completions, references, strict=True)
        ]
    )


# -- token ids -----------------------------------------------------------------------------------


def _ids_for_bleuprint(sequences: list[list[int]]) -> list[Any]:
    """Token ids as bleuprint takes them: the lists themselves where it accepts ids, else
    each id as a string token (what a user had to do before token ids were accepted)."""
    from bleuprint import BLEUScore  # noqa: PLC0415

    one_id: Any = [[1]]
    try:
        BLEUScore().count(one_id, [one_id])
    except Exception:  # a release without token ids: any refusal
        return [[str(token) for token in sequence] for sequence in sequences]
    return sequences


def bleuprint_ids(definition: str, data: Any) -> Any:
    """Sentence BLEU of every pair of id sequences, in one call."""
    from bleuprint import BLEUScore  # noqa: PLC0415

    hypotheses, references = data
    engine = BLEUScore.nltk() if definition == "nltk" else BLEUScore.sacrebleu_sentence()
    hypotheses = _ids_for_bleuprint(hypotheses)
    references = [(reference,) for reference in _ids_for_bleuprint(references)]
    return 100 * engine.sentence_scores(hypotheses, references).scores


def nltk_ids(data: Any) -> Any:
    """NLTK's ``sentence_bleu`` once per pair, on the id lists themselves (arrays made lists
    first: NLTK hashes Python ints faster than numpy's; 2 ms of about 700)."""
    from nltk.translate.bleu_score import sentence_bleu  # noqa: PLC0415

    hypotheses, references = (
        [ids if isinstance(ids, list) else ids.tolist() for ids in sequences] for sequences in data
    )
    pairs = zip(hypotheses, references, strict=True)
    return 100 * np.array(
        [sentence_bleu([reference], hypothesis) for hypothesis, reference in pairs]
    )


def sacrebleu_joined_ids(data: Any) -> Any:
    """sacreBLEU's ``sentence_score`` once per pair, on the ids joined into strings (the
    time to join them included), split on spaces only."""
    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415

    hypotheses, references = data
    bleu = BLEU(tokenize="none", effective_order=True)
    scores = []
    for hypothesis, reference in zip(hypotheses, references, strict=True):
        text, reference_text = " ".join(map(str, hypothesis)), " ".join(map(str, reference))
        scores.append(bleu.sentence_score(text, [reference_text]).score)
    return np.array(scores)


def bleuprint_id_calls(batch: int, data: Any) -> Any:
    """Many calls of ``batch`` id sequences each, one after the other (a trainer's steps):
    the time per call is the fixed overhead plus ``batch`` sequences' work."""
    from bleuprint import BLEUScore  # noqa: PLC0415

    hypotheses, references = data
    engine = BLEUScore.sacrebleu_sentence()
    hypotheses = _ids_for_bleuprint(hypotheses)
    references = [(reference,) for reference in _ids_for_bleuprint(references)]
    return np.concatenate(
        [
            100 * engine.sentence_scores(hypotheses[:batch], references[:batch]).scores
            for _ in range(ID_CALLS[batch])
        ]
    )


ID_CALLS = {1: 1000, 64: 100}
"""How many calls :func:`bleuprint_id_calls` makes, by batch size."""


# -- pairwise and minimum-Bayes-risk decoding ----------------------------------------------------


def bleuprint_pairwise(groups: Any) -> Any:
    from bleuprint import BLEUScore  # noqa: PLC0415

    return 100 * np.stack(BLEUScore().pairwise_scores(groups))


def sacrebleu_pairwise(groups: Any) -> Any:
    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415

    bleu = BLEU(tokenize="none", smooth_method="none")
    return np.array(
        [
            [
                [bleu.sentence_score(hypothesis, [reference]).score for reference in group]
                for hypothesis in group
            ]
            for group in groups
        ]
    )


def fast_bleu_pairwise(groups: Any) -> Any:
    from fast_bleu import BLEU  # noqa: PLC0415

    matrices = []
    for group in groups:
        tokens = [candidate.split() for candidate in group]
        # fast-bleu scores hypotheses against one fixed reference set: one set per column
        columns = [
            BLEU([reference], {4: (0.25,) * 4}, smoothing_func=0).get_score(tokens)[4]
            for reference in tokens
        ]
        matrices.append(np.array(columns).T)
    return 100 * np.stack(matrices)


def bleuprint_mbr(mode: str, groups: Any) -> Any:
    """Every candidate's expected sentence BLEU (sacreBLEU's ``sentence_bleu``) against all
    the candidates of its group, itself included, as mbrs computes it."""
    from bleuprint import BLEUScore  # noqa: PLC0415

    choices = BLEUScore.sacrebleu_sentence().mbr(groups, mode=mode, include_self=True)
    return 100 * np.stack([choice.utilities for choice in choices])


def sacrebleu_mbr(groups: Any) -> Any:
    """What mbrs's BLEU does: one sacreBLEU ``sentence_score`` per ordered candidate pair."""
    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415

    bleu = BLEU(effective_order=True)  # mbrs's defaults: 13a, exp smoothing
    return np.stack(
        [
            [
                np.mean([bleu.sentence_score(hypothesis, [ref]).score for ref in group])
                for hypothesis in group
            ]
            for group in groups
        ]
    )


def mbrs_mbr(mode: str, groups: Any) -> Any:
    """mbrs 0.1.8 with its BLEU (sacreBLEU's sentence BLEU, 13a, exp smoothing), in its side
    environment; one worker process (its default is 8, one pool per group, on 2 CPUs here)."""
    from mbrs.decoders import DecoderAggregateMBR, DecoderMBR  # noqa: PLC0415
    from mbrs.metrics import MetricBLEU  # noqa: PLC0415

    metric = MetricBLEU(MetricBLEU.Config(tokenize="13a", num_workers=1))
    decoder_class = DecoderMBR if mode == "exact" else DecoderAggregateMBR
    decoder = decoder_class(decoder_class.Config(), metric)
    utilities = []
    for group in groups:
        output = decoder.decode(group, group, nbest=len(group))  # every candidate, ranked
        values = np.empty(len(group))
        values[output.idx] = output.score
        utilities.append(values)
    return np.stack(utilities)
