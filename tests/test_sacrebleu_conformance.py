"""bleuprint's sacreBLEU presets against sacreBLEU 2.6.0's own results on WMT22 system outputs.

Every pair, system, reference set and configuration of ``../shared/data/wmt22/*/expected.json``
and every segment of ``expected_sentence.json``. Files are read as the data's README says.
Each file is tokenized once per tokenizer (a module-wide cache) and the engine is given the
tokens; one test per pair also gives it the raw text, to show both paths count the same.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from bleuprint import BLEUScore
from bleuprint.compat.sacrebleu import signature as sacrebleu_signature
from bleuprint.typing import Tokenizer
from tests.sacrebleu_reports import assert_as_sacrebleu


@functools.cache
def read_segments(path: Path) -> tuple[str, ...]:
    """UTF-8 with a byte-order mark kept, split on "\\n" only, the final empty piece dropped."""
    text = path.read_bytes().decode("utf-8")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return tuple(lines)


@functools.cache
def tokenized(path: Path, tokenizer: Tokenizer) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(tokenizer(segment)) for segment in read_segments(path))


@functools.cache
def load_json(path: Path) -> Any:
    with path.open(encoding="utf-8") as handle:
        return json.load(handle)


def reference_files(key: str) -> list[str]:
    """``ref:A+B`` -> ``["ref.A.txt", "ref.B.txt"]``."""
    ids = key.rpartition("|ref:")[2].split("+")
    return [f"ref.{reference_id}.txt" for reference_id in ids]


def test_corpus_scores(shared: Any, wmt22_pair: str, wmt22_configuration: str) -> None:
    """Every system and reference set of one pair under one configuration."""
    folder = shared("data", "wmt22", wmt22_pair, "expected.json").parent
    pair = load_json(folder / "expected.json")
    options = pair["configs"][wmt22_configuration]
    bleu = BLEUScore.sacrebleu(**options)
    checked = 0
    for system, entry in pair["systems"].items():
        hypotheses = tokenized(folder / entry["file"], bleu.tokenizer)
        for key, expected in entry["scores"].items():
            if not key.startswith(f"{wmt22_configuration}|"):
                continue
            where = f"{wmt22_pair} {system} {key}"
            assert expected["kwargs"] == options, where
            streams = [tokenized(folder / name, bleu.tokenizer) for name in reference_files(key)]
            result = bleu.corpus_score(hypotheses, list(zip(*streams)))
            assert_as_sacrebleu(result, expected, options, where)
            assert sacrebleu_signature(result) == expected["signature"], where
            checked += 1
    assert checked >= len(pair["systems"])


def test_corpus_score_from_text(shared: Any, wmt22_pair: str) -> None:
    """The text path (the engine tokenizes) gives the same as the token path."""
    folder = shared("data", "wmt22", wmt22_pair)
    pair = load_json(folder / "expected.json")
    system, entry = next(iter(pair["systems"].items()))
    # the default configuration with every reference
    key = max((key for key in entry["scores"] if key.startswith("default|")), key=len)
    streams = [read_segments(folder / name) for name in reference_files(key)]
    result = BLEUScore.sacrebleu().corpus_score(
        read_segments(folder / entry["file"]), [list(refs) for refs in zip(*streams)]
    )
    assert_as_sacrebleu(result, entry["scores"][key], {}, f"{wmt22_pair} {system} {key}")


# expected_sentence.json names each configuration by the sacreBLEU call that produced it.
SENTENCE_CONFIGS = {
    "sentence_bleu_default": BLEUScore.sacrebleu_sentence,
    "bleu_noeff": BLEUScore.sacrebleu,
    "sentence_bleu_zh": functools.partial(BLEUScore.sacrebleu_sentence, tokenize="zh"),
    "sentence_bleu_ja-mecab": functools.partial(BLEUScore.sacrebleu_sentence, tokenize="ja-mecab"),
}


def test_sentence_scores(shared: Any, wmt22_pair: str) -> None:
    folder = shared("data", "wmt22", wmt22_pair)
    sentences = load_json(folder / "expected_sentence.json")
    hypotheses = read_segments(folder / sentences["file"])
    checked = 0
    for segment in sentences["segments"]:
        index = segment["index0"]
        assert hypotheses[index] == segment["hyp"]
        for key, expected in segment["scores"].items():
            config = key.partition("|")[0]
            bleu = SENTENCE_CONFIGS[config]()
            references = [read_segments(folder / name)[index] for name in reference_files(key)]
            assert references == [segment["refs"][name] for name in reference_files(key)]
            result = bleu.sentence_score(segment["hyp"], references)
            where = f"{wmt22_pair} line {segment['line']} {key}"
            assert_as_sacrebleu(result, expected, {}, where)
            assert sacrebleu_signature(result) == sentences["signatures"][key], where
            checked += 1
    assert checked >= len(sentences["segments"])
