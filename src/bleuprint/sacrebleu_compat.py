"""sacreBLEU's layout of references: one stream per reference set.

sacreBLEU takes references as *streams*, one list per reference set, each as long as the
hypotheses; bleuprint takes one list of references per hypothesis. :func:`from_streams`
converts, and refuses the inputs that sacreBLEU silently mis-scores:

>>> from bleuprint import BLEUScore, sacrebleu_compat
>>> from bleuprint.compat import sacrebleu
>>> hypotheses = ["The dog bit the man.", "It wasn't surprising."]
>>> streams = [["The dog bit the man.", "It was not unexpected."],
...            ["The dog had bit the man.", None]]
>>> references = sacrebleu_compat.from_streams(hypotheses, streams)
>>> references
[['The dog bit the man.', 'The dog had bit the man.'], ['It was not unexpected.']]
>>> result = BLEUScore.sacrebleu().corpus_score(hypotheses, references)
>>> print(result)
BLEU = 63.98 80.0/62.5/66.7/75.0 (BP = 0.905 ratio = 0.909 hyp_len = 10 ref_len = 11)
>>> sacrebleu.signature(result)
'nrefs:var|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0'
"""

from __future__ import annotations

from collections.abc import Sequence

from bleuprint.exceptions import InputError

__all__ = ["from_streams"]


def from_streams(
    hypotheses: Sequence[str], reference_streams: Sequence[Sequence[str | None]]
) -> list[list[str]]:
    """sacreBLEU's reference streams as bleuprint's references per hypothesis.

    ``reference_streams[k][i]`` is the k-th reference of hypothesis ``i``, or ``None`` where
    that hypothesis has fewer references. As in sacreBLEU 2.6.0, only ``None`` is dropped: an
    empty string is a reference of length 0. Where sacreBLEU silently scores something other
    than what was meant, this raises :class:`~bleuprint.InputError`: a stream of another
    length than the hypotheses (sacreBLEU drops the extra segments), a stream given as one
    string (sacreBLEU reads its characters as segments), a segment left without references.

    >>> from_streams(["a b", "c"], [["a b", "c"], ["a", ""]])
    [['a b', 'a'], ['c', '']]
    >>> from_streams(["a b", "c"], [["a b"], ["c"]])
    Traceback (most recent call last):
    ...
    bleuprint.exceptions.InputError: reference stream 0 has 1 segment but there are 2 ...
    """
    _check_segments("hypotheses", hypotheses, allow_none=False)
    if isinstance(reference_streams, str) or not isinstance(reference_streams, Sequence):
        raise InputError(
            "references must be a list of reference streams (lists of strings), "
            f"got {type(reference_streams).__name__}"
        )
    if not reference_streams:
        raise InputError("no reference stream given")
    for number, stream in enumerate(reference_streams):
        _check_segments(f"reference stream {number}", stream, allow_none=True)
        if len(stream) != len(hypotheses):
            raise InputError(
                f"reference stream {number} has {_segments(len(stream))} but there are "
                f"{len(hypotheses)} hypotheses: give one stream per reference set, "
                "each as long as the hypotheses"
            )
    references = [
        [reference for reference in segment if reference is not None]
        for segment in zip(*reference_streams)
    ]
    for index, segment in enumerate(references):
        if not segment:
            raise InputError(f"segment {index}: every reference stream has None there")
    return references


def _segments(count: int) -> str:
    return f"{count} segment" + ("" if count == 1 else "s")


def _check_segments(what: str, segments: object, *, allow_none: bool) -> None:
    if isinstance(segments, str):
        # for a reference stream: the usual slip is passing one stream without its list
        hint = " (one reference per hypothesis is one stream: pass [references])"
        raise InputError(
            f"{what} is a single string; it must be a list of strings, one per segment"
            + (hint if allow_none else "")
        )
    if not isinstance(segments, Sequence):
        raise InputError(
            f"{what} must be a list of strings, one per segment, got {type(segments).__name__}"
        )
    for index, segment in enumerate(segments):
        if not isinstance(segment, str) and not (allow_none and segment is None):
            raise InputError(
                f"{what}, segment {index}: expected a string, got {type(segment).__name__}"
            )
