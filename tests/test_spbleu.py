"""spBLEU (issue 27): sacreBLEU's and torchmetrics' SentencePiece tokenizers, exact.

The FLORES models are not on this machine, and bleuprint never downloads them: the tests
train small SentencePiece models from the WMT22 lines in ../shared (in about a second) and put
them where sacreBLEU and torchmetrics look, so that sacreBLEU 2.6.0 and torchmetrics 1.9.0
themselves, reading the same files, are the oracles.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sentencepiece
import torchmetrics.functional.text.sacre_bleu as torchmetrics_sacre_bleu
from sacrebleu.metrics import BLEU
from sacrebleu.tokenizers import tokenizer_spm

from bleuprint import BLEUScore, tokenizers
from bleuprint.compat import sacrebleu as sacrebleu_definition
from bleuprint.compat import torchmetrics as torchmetrics_definition
from bleuprint.exceptions import ConfigurationError
from tests.cli_helpers import SACREBLEU

PAIRS = ("cs-en", "de-en", "en-de", "en-ja", "en-zh", "zh-en")


def _train(lines: list[str], **options: Any) -> bytes:
    model = io.BytesIO()
    settings = {"vocab_size": 4000, "character_coverage": 0.995, **options}
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(lines), model_writer=model, minloglevel=2, num_threads=1, **settings
    )
    return model.getvalue()


@pytest.fixture(scope="module")
def wmt22(shared: Any) -> Path:
    return shared("data", "wmt22")  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def model(wmt22: Path) -> bytes:
    """A model of every script in the data (300 reference lines of each pair)."""
    lines = []
    for pair in PAIRS:
        lines += _first("ref", wmt22 / pair).read_text("utf-8").splitlines()[:300]
    return _train(lines)


@pytest.fixture
def folder(model: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A ``$SACREBLEU`` folder whose models/ holds the model under each of sacreBLEU's file
    names; both sacreBLEU (in this process) and bleuprint look there."""
    models = tmp_path / "sacrebleu" / "models"
    models.mkdir(parents=True)
    for name in tokenizers.SACREBLEU_MODEL_FILES.values():
        (models / name).write_bytes(model)
    monkeypatch.setenv("SACREBLEU", str(models.parent))
    monkeypatch.setattr(tokenizer_spm, "SACREBLEU_DIR", str(models.parent))
    return models.parent


def _first(kind: str, folder: Path) -> Path:
    """The first reference (``ref``) or system (``sys``) file of a pair's folder."""
    return sorted(folder.glob(f"{kind}.*.txt"))[0]


def _system(wmt22: Path, pair: str) -> tuple[list[str], list[str]]:
    """A pair's first system and first reference."""
    folder = wmt22 / pair
    hypotheses = _first("sys", folder).read_text("utf-8").splitlines()
    return hypotheses, _first("ref", folder).read_text("utf-8").splitlines()


@pytest.mark.usefixtures("folder")
@pytest.mark.parametrize("pair", PAIRS)
def test_flores200_as_sacrebleu_corpus_and_segments(wmt22: Path, pair: str) -> None:
    hypotheses, references = _system(wmt22, pair)
    metric = BLEU(tokenize="flores200")
    expected = metric.corpus_score(hypotheses, [references])
    bleu = BLEUScore.sacrebleu(tokenize="flores200")
    got = bleu.corpus_score(hypotheses, [[reference] for reference in references])
    assert str(got) == str(expected)
    assert got.score * 100 == pytest.approx(expected.score, rel=1e-12)
    assert (list(got.stats.matches), list(got.stats.totals)) == (
        expected.counts,
        expected.totals,
    )
    assert sacrebleu_definition.signature(got) == str(metric.get_signature())
    sentence = BLEU(tokenize="flores200", effective_order=True)
    segments = BLEUScore.sacrebleu_sentence(tokenize="flores200").sentence_scores(
        hypotheses[:300], [[reference] for reference in references[:300]]
    )
    for index, score in enumerate(segments.scores):
        wanted = sentence.sentence_score(hypotheses[index], [references[index]]).score
        assert score * 100 == pytest.approx(wanted, rel=1e-12, abs=1e-12), index


@pytest.mark.usefixtures("folder")
@pytest.mark.filterwarnings("ignore:The 'warn' method is deprecated:DeprecationWarning")
@pytest.mark.parametrize("name", ["spm", "flores101", "spBLEU-1K"])
def test_every_sacrebleu_sentencepiece_name(wmt22: Path, name: str) -> None:
    # lowercased, two references: what sacreBLEU's options make of each of its names
    hypotheses, references = _system(wmt22, "de-en")
    second = (wmt22 / "de-en" / "ref.B.txt").read_text("utf-8").splitlines()
    metric = BLEU(tokenize=name, lowercase=True)
    expected = metric.corpus_score(hypotheses, [references, second])
    got = BLEUScore.sacrebleu(tokenize=name, lowercase=True).corpus_score(
        hypotheses, [list(pair) for pair in zip(references, second)]
    )
    assert str(got) == str(expected)
    assert sacrebleu_definition.signature(got) == str(metric.get_signature())


def test_a_model_given_by_its_path(wmt22: Path, model: bytes, tmp_path: Path) -> None:
    # sacreBLEU's folder empty: the file given is read, and the signature names the model
    (tmp_path / "mine.model").write_bytes(model)
    hypotheses, references = _system(wmt22, "en-zh")
    bleu = BLEUScore.sacrebleu(tokenize="flores200", spm_model=str(tmp_path / "mine.model"))
    got = bleu.corpus_score(hypotheses[:50], [[reference] for reference in references[:50]])
    expected = _sacrebleu_with_folder(tmp_path, model, hypotheses[:50], references[:50])
    assert str(got) == expected
    assert bleu.signature().parts["tok"] == "rstrip[spm[flores200]]"


def _sacrebleu_with_folder(
    folder: Path, model: bytes, hypotheses: list[str], references: list[str]
) -> str:
    models = folder / "oracle" / "models"
    models.mkdir(parents=True)
    (models / tokenizers.SACREBLEU_MODEL_FILES["flores200"]).write_bytes(model)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tokenizer_spm, "SACREBLEU_DIR", str(models.parent))
        return str(BLEU(tokenize="flores200").corpus_score(hypotheses, [references]))


def test_the_signature_builds_the_tokenizer_back(folder: Path) -> None:
    bleu = BLEUScore.sacrebleu(tokenize="flores200")
    again = BLEUScore.from_signature(str(bleu.signature()))
    assert again == bleu
    assert again.compute("Ein Haus.", ["Ein Haus."]) == 1.0


def _whitespace_kept(wmt22: Path) -> bytes:
    lines = (wmt22 / "de-en" / "ref.A.txt").read_text("utf-8").splitlines()[:300]
    return _train(
        [line + " \t " for line in lines],
        normalization_rule_name="identity",
        remove_extra_whitespaces=False,
        vocab_size=1000,
    )


@pytest.fixture(scope="module")
def whitespace_kept(wmt22: Path) -> bytes:
    """A model that keeps whitespace as it is (no normalization): its pieces of a line's
    trailing spaces and tabs are tokens, unless the line is stripped first."""
    return _whitespace_kept(wmt22)


TRAILING = ["Das Haus ist klein. \t ", "Ein\tHaus  ", "Das Haus", "  "]
REFERENCES = ["Das Haus ist klein.", "Ein Haus \t", "Das Haus \t ", "x"]


def test_sacrebleu_strips_the_end_before_its_pieces(
    whitespace_kept: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    models = tmp_path / "models"
    models.mkdir()
    (models / tokenizers.SACREBLEU_MODEL_FILES["flores200"]).write_bytes(whitespace_kept)
    monkeypatch.setattr(tokenizer_spm, "SACREBLEU_DIR", str(tmp_path))
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    expected = BLEU(tokenize="flores200").corpus_score(TRAILING, [REFERENCES])
    got = BLEUScore.sacrebleu(tokenize="flores200").corpus_score(
        TRAILING, [[reference] for reference in REFERENCES]
    )
    assert str(got) == str(expected)
    # the test can fail: without the stripping, this model counts other tokens
    plain = tokenizers.SentencePiece("flores200")
    stripped = sacrebleu_definition.RightStripped(plain)
    assert plain(TRAILING[0]) != stripped(TRAILING[0])


@pytest.fixture
def torchmetrics_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """torchmetrics' FLORES folder in a scratch place, for it and for bleuprint's preset; its
    loaded models forgotten before and after."""
    folder = tmp_path / "torchmetrics-flores"
    folder.mkdir()
    monkeypatch.setattr(torchmetrics_sacre_bleu, "_FLORES_LOCAL_DIR", str(folder))
    monkeypatch.setattr(torchmetrics_definition, "FLORES_FOLDER", folder)
    processors = torchmetrics_sacre_bleu._SacreBLEUTokenizer.sentencepiece_processors
    monkeypatch.setattr(
        torchmetrics_sacre_bleu._SacreBLEUTokenizer,
        "sentencepiece_processors",
        dict.fromkeys(processors),
    )
    yield folder


@pytest.mark.parametrize("tokenize", ["flores101", "flores200"])
@pytest.mark.parametrize("lowercase", [False, True])
def test_torchmetrics_flores(
    whitespace_kept: bytes, torchmetrics_folder: Path, tokenize: str, lowercase: bool
) -> None:
    # torchmetrics does not strip the end: with this model, its tokens are not sacreBLEU's
    (torchmetrics_folder / tokenizers.SACREBLEU_MODEL_FILES[tokenize]).write_bytes(whitespace_kept)
    expected = torchmetrics_sacre_bleu.sacre_bleu_score(
        TRAILING, [[reference] for reference in REFERENCES], tokenize=tokenize, lowercase=lowercase
    )
    bleu = BLEUScore.torchmetrics(tokenize=tokenize, lowercase=lowercase)
    got = bleu.corpus_score(TRAILING, [[reference] for reference in REFERENCES])
    assert got.score == pytest.approx(float(expected), rel=1e-6)
    assert (
        got.score
        != BLEUScore.sacrebleu(
            tokenize=tokenize,
            spm_model=str(torchmetrics_folder / tokenizers.SACREBLEU_MODEL_FILES[tokenize]),
        )
        .corpus_score(TRAILING, [[reference] for reference in REFERENCES])
        .score
    )


def test_where_there_is_no_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    bleu = BLEUScore.sacrebleu(tokenize="flores200")
    wanted = tmp_path / "models" / "flores200sacrebleuspm"
    with pytest.raises(ConfigurationError, match=f"not at {wanted}: put sacreBLEU's file there"):
        bleu.corpus_score(["a"], [["a"]])


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda path: BLEUScore.sacrebleu(tokenize="flores200", spm_model=str(path)),
            "is not a SentencePiece model",
        ),
        (
            lambda path: BLEUScore.sacrebleu(tokenize="13a", spm_model=str(path)),
            "spm_model is the model of a SentencePiece tokenizer",
        ),
        (
            lambda path: BLEUScore(tokenizer=tokenizers.SentencePiece("mine")),
            "the SentencePiece model 'mine' is none of sacreBLEU's",
        ),
        (
            lambda path: BLEUScore.torchmetrics(tokenize="13a", spm_model=str(path)),
            "spm_model is the model of tokenize=flores101 or flores200",
        ),
    ],
)
def test_wrong_models(tmp_path: Path, build: Any, message: str) -> None:
    not_a_model = tmp_path / "text.model"
    not_a_model.write_text("not a model\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=message):
        build(not_a_model).corpus_score(["a"], [["a"]])


def test_the_commands_as_sacrebleus(wmt22: Path, model: bytes, tmp_path: Path) -> None:
    # bleuprint sacrebleu and sacreBLEU's own command, reading the same $SACREBLEU folder;
    # score -f text prints sacreBLEU's line too, its model given by --spm-model
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "flores200sacrebleuspm").write_bytes(model)
    environment = {**os.environ, "SACREBLEU": str(tmp_path)}
    environment.pop("SACREBLEU_FORMAT", None)
    folder = wmt22 / "en-ja"
    system = str(_first("sys", folder))
    arguments = [str(folder / "ref.A.txt"), "-i", system, "-tok", "flores200"]
    expected = _run([str(SACREBLEU), *arguments, "-f", "text"], environment)
    assert _run([sys.executable, "-m", "bleuprint", "sacrebleu", *arguments, "-f", "text"],
                environment) == expected  # fmt: skip
    json_expected = _run([str(SACREBLEU), *arguments], environment)
    assert _run([sys.executable, "-m", "bleuprint", "sacrebleu", *arguments], environment) == (
        json_expected
    )
    scored = _run(
        [sys.executable, "-m", "bleuprint", "score", "-r", str(folder / "ref.A.txt"), "-i",
         system, "-tok", "flores200", "--spm-model", str(tmp_path / "models" /
         "flores200sacrebleuspm"), "-f", "text"],
        {**environment, "SACREBLEU": str(tmp_path / "elsewhere")},
    )  # fmt: skip
    assert scored.splitlines()[0] == expected.strip()


def _run(command: list[str], environment: dict[str, str]) -> str:
    completed = subprocess.run(
        command, capture_output=True, text=True, env=environment, check=False, encoding="utf-8"
    )
    assert completed.returncode == 0, completed.stderr
    return completed.stdout
