"""``bleuprint score``: corpus and sentence scores, output formats, and significance options.

Expected values come from sacreBLEU run beside the command (its Python API, its command line,
or its paired tests), from the shared significance vectors, or from hand computation.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from bleuprint import BLEUScore, __version__, brevity, presets, tokenizers
from bleuprint.cli.corpus import tokenized_lines
from tests.cli_helpers import (
    BETTER,
    CANONICAL,
    HYPOTHESES,
    REFERENCES,
    canonical_sacrebleu,
    fails,
    lines,
    run,
    sacrebleu_cli,
    sacrebleu_run,
    succeed,
    system_json,
    write_examples,
    write_vector_systems,
)

STREAMS = [lines(REFERENCES)]


@pytest.fixture
def files(tmp_path: Path) -> Path:
    return write_examples(tmp_path)


def letters(text: str) -> str:
    """The letters tokenizer by its definition: runs of letters, lowercased."""
    return " ".join(regex.findall(r"\p{L}+", text.lower()))


def scored_as(bleu: BLEU, transform: Any = str) -> Any:
    """sacreBLEU's corpus score of the example files, each line transformed first."""
    return bleu.corpus_score(
        [transform(line) for line in lines(HYPOTHESES)],
        [[transform(line) for line in stream] for stream in STREAMS],
    )


# -- JSON output: sacreBLEU's numbers for the same configuration ------------------------------


@pytest.mark.parametrize(
    ("options", "engine", "bleu", "transform"),
    [
        ((), BLEUScore.canonical(), canonical_sacrebleu(), str),
        (
            ("--max-n", "2"),
            BLEUScore.canonical(max_n=2),
            canonical_sacrebleu(max_ngram_order=2),
            str,
        ),
        (
            ("--preset", "unigram"),
            BLEUScore.unigram(),
            canonical_sacrebleu(max_ngram_order=1),
            str,
        ),
        (
            ("-tok", "letters"),
            BLEUScore.canonical(tokenizer=tokenizers.Letters()),
            canonical_sacrebleu(),
            letters,
        ),
        (("--smooth", "none"), BLEUScore.canonical(), canonical_sacrebleu(), str),
        (("--preset", "sacrebleu"), BLEUScore.sacrebleu(), BLEU(), str),
        (
            ("--preset", "sacrebleu-sentence"),
            BLEUScore.sacrebleu_sentence(),
            BLEU(effective_order=True),
            str,
        ),
        (
            ("--preset", "sacrebleu", "-lc", "-tok", "intl", "--smooth", "floor"),
            BLEUScore.sacrebleu(lowercase=True, tokenize="intl", smooth_method="floor"),
            BLEU(lowercase=True, tokenize="intl", smooth_method="floor"),
            str,
        ),
        (
            ("--preset", "sacrebleu", "--smooth", "add-k", "--smooth-value", "0.5"),
            BLEUScore.sacrebleu(smooth_method="add-k", smooth_value=0.5),
            BLEU(smooth_method="add-k", smooth_value=0.5),
            str,
        ),
        (
            ("--preset", "sacrebleu", "--effective-order", "--max-n", "6"),
            BLEUScore.sacrebleu(effective_order=True, max_ngram_order=6),
            BLEU(effective_order=True, max_ngram_order=6),
            str,
        ),
    ],
)
def test_json_gives_sacrebleus_numbers(
    files: Path, options: tuple[str, ...], engine: BLEUScore, bleu: BLEU, transform: Any
) -> None:
    output = system_json(
        succeed(
            "score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "-w", "4", *options, cwd=files
        )
    )
    expected = scored_as(bleu, transform)
    assert output["name"] == "BLEU"
    # sacreBLEU's 0-100, as the definition prints it (unigram's [0, 1])
    preset = options[options.index("--preset") + 1] if "--preset" in options else "canonical"
    scale = presets.get(preset).scale / 100
    assert output["score"] == pytest.approx(expected.score * scale, abs=0.5e-4)
    assert output["precisions"] == pytest.approx(expected.precisions, rel=1e-12)
    assert output["bp"] == pytest.approx(expected.bp, rel=1e-12)
    assert output["ratio"] == pytest.approx(expected.ratio, rel=1e-12)
    assert (output["hyp_len"], output["ref_len"]) == (expected.sys_len, expected.ref_len)
    # The counts before smoothing (sacreBLEU's add-k reports them after), summed over segments.
    hypotheses = [transform(line) for line in lines(HYPOTHESES)]
    references = [[transform(line) for line in stream] for stream in STREAMS]
    counted = np.sum(bleu._extract_corpus_statistics(hypotheses, references), axis=0).tolist()
    orders = len(output["counts"])
    assert output["counts"] == counted[2 : 2 + orders]
    assert output["totals"] == counted[2 + orders :]
    # The signature names the configuration the options stand for, and rebuilds it.
    assert BLEUScore.from_signature(output["bleuprint_signature"]) == engine
    if "sacrebleu" in options:
        assert output["signature"] == bleu.get_signature().format()


def test_json_russian_by_hand(tmp_path: Path) -> None:
    # Letter words without case, distinct shared n-grams: "the" occurs twice but counts once,
    # unigrams 5/6 and every longer order shared; BP is the ratio 22 / 23 of characters.
    (tmp_path / "hyp.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("The cat sat on the mat!\n", encoding="utf-8")
    output = system_json(
        succeed(
            "score",
            "--preset",
            "russian",
            "-r",
            "ref.txt",
            "-i",
            "hyp.txt",
            "-w",
            "6",
            cwd=tmp_path,
        )
    )
    assert output["precisions"] == pytest.approx([100 * 5 / 6, 100, 100, 100])
    assert (output["hyp_len"], output["ref_len"]) == (22, 23)
    assert output["bp"] == pytest.approx(22 / 23)
    # on [0, 1], as the contest prints it
    assert output["score"] == round(22 / 23 * (5 / 6) ** 0.25, 6)


def test_json_parts_by_hand(files: Path) -> None:
    # --part len=chars: lengths in characters, 20 + 23 + 9 = 52 against 22 + 29 + 9 = 60;
    # ref=shortest with one reference is that reference. The n-grams are the canonical ones.
    output = system_json(
        succeed(
            "score",
            *CANONICAL,
            "-r",
            "ref.txt",
            "-i",
            "hyp.txt",
            "-w",
            "6",
            "--part",
            "ref=shortest",
            "--part",
            "len=chars",
            cwd=files,
        )
    )
    assert (output["hyp_len"], output["ref_len"]) == (52, 60)
    assert output["bp"] == pytest.approx(math.exp(1 - 60 / 52))
    precisions = (11 / 13) * (6 / 10) * (3 / 7) * (1 / 5)
    assert output["score"] == round(100 * math.exp(1 - 60 / 52) * precisions**0.25, 6)
    assert BLEUScore.from_signature(output["bleuprint_signature"]) == BLEUScore.canonical(
        reference_length=brevity.Shortest(), length=brevity.Characters()
    )


def test_json_verbose_score_by_hand(files: Path) -> None:
    # Unigrams 11/13, bigrams 6/10, trigrams 3/7, 4-grams 1/5; 13 tokens against 14.
    output = system_json(succeed("score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", cwd=files))
    assert output["verbose_score"] == (
        "84.6/60.0/42.9/20.0 (BP = 0.926 ratio = 0.929 hyp_len = 13 ref_len = 14)"
    )
    score = math.exp(1 - 14 / 13) * (11 / 13 * 6 / 10 * 3 / 7 * 1 / 5) ** 0.25
    assert output["score"] == round(100 * score, 1)


def test_several_references(files: Path) -> None:
    second = ["a cat sat on a mat", "the dog", "it rained"]
    (files / "ref2.txt").write_text("\n".join(second) + "\n", encoding="utf-8")
    output = system_json(
        succeed(
            "score", *CANONICAL, "-r", "ref.txt", "ref2.txt", "-i", "hyp.txt", "-w", "6", cwd=files
        )
    )
    expected = canonical_sacrebleu().corpus_score(lines(HYPOTHESES), [*STREAMS, second])
    assert output["score"] == round(expected.score, 6)
    assert output["bleuprint_signature"].endswith("nrefs:2")


def test_standard_input_is_the_default_system(files: Path) -> None:
    from_file = succeed("score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", cwd=files)
    from_stdin = succeed("score", *CANONICAL, "-r", "ref.txt", cwd=files, stdin=HYPOTHESES.encode())
    assert system_json(from_stdin) == {
        **system_json(from_file),
        "system": "stdin",
        "file": "<stdin>",
    }
    explicit = succeed(
        "score", *CANONICAL, "-r", "ref.txt", "-i", "-", cwd=files, stdin=HYPOTHESES.encode()
    )
    assert explicit == from_stdin


# -- Output formats -------------------------------------------------------------------------

# bleuprint's signature of the canonical preset, part by part (docs/engine.md).
CANONICAL_SIGNATURE = (
    f"bleuprint:{__version__}|tok:whitespace|ngram:contiguous[4]|match:clipped|len:tokens|"
    "ref:closest[shorter]|bp:exp|smooth:none|weights:uniform|nrefs:1"
)


def test_text_format_and_width(files: Path) -> None:
    expected = scored_as(canonical_sacrebleu())
    output = succeed(
        "score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "-f", "text", "-w", "3", cwd=files
    )
    assert output == (
        f"BLEU|{CANONICAL_SIGNATURE} = {expected.score:.3f} "
        "84.6/60.0/42.9/20.0 (BP = 0.926 ratio = 0.929 hyp_len = 13 ref_len = 14)\n"
    )


def test_score_only(files: Path) -> None:
    output = succeed(
        "score",
        *CANONICAL,
        "-r",
        "ref.txt",
        "-i",
        "hyp.txt",
        "better.txt",
        "-b",
        "-w",
        "2",
        cwd=files,
    )
    bleu = canonical_sacrebleu()
    expected = [bleu.corpus_score(lines(text), STREAMS).score for text in (HYPOTHESES, BETTER)]
    assert output == "".join(f"{score:.2f}\n" for score in expected)


def test_tsv(files: Path) -> None:
    output = succeed(
        "score",
        *CANONICAL,
        "-r",
        "ref.txt",
        "-i",
        "hyp.txt",
        "-f",
        "tsv",
        "--max-n",
        "2",
        cwd=files,
    )
    header, row = (line.split("\t") for line in lines(output))
    assert header == ["system", "score", "p1", "p2", "bp", "ratio", "hyp_len", "ref_len"]
    expected = scored_as(canonical_sacrebleu(max_ngram_order=2))
    assert row[0] == "hyp"
    assert float(row[1]) == round(expected.score, 1)
    assert [float(cell) for cell in row[2:4]] == pytest.approx(expected.precisions, rel=1e-12)
    assert float(row[4]) == pytest.approx(expected.bp, rel=1e-12) and row[6:] == ["13", "14"]


def test_several_systems_make_a_table(files: Path) -> None:
    output = succeed(
        "score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "better.txt", "-f", "text", cwd=files
    )
    table = lines(output)
    bleu = canonical_sacrebleu()
    assert table[0].split() == ["system", "BLEU"]
    for row, (name, text) in zip(table[2:4], [("hyp", HYPOTHESES), ("better", BETTER)]):
        score = bleu.corpus_score(lines(text), STREAMS).score
        assert row.split() == [name, f"{score:.1f}"]
    assert table[-1] == f"BLEU|{CANONICAL_SIGNATURE}"
    document = json.loads(
        succeed("score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "better.txt", cwd=files)
    )
    assert [system["system"] for system in document["systems"]] == ["hyp", "better"]
    assert [system["file"] for system in document["systems"]] == ["hyp.txt", "better.txt"]
    assert document["significance"] is None


# -- Sentence level -------------------------------------------------------------------------


def test_sentence_level_in_every_format(files: Path) -> None:
    bleu = canonical_sacrebleu(max_ngram_order=2)
    expected = [
        bleu.sentence_score(hypothesis, [reference])
        for hypothesis, reference in zip(lines(HYPOTHESES), lines(REFERENCES))
    ]
    base = ("score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "--max-n", "2", "-sl")
    as_json = system_json(succeed(*base, "-w", "5", cwd=files))["segments"]
    assert [item["segment"] for item in as_json] == [1, 2, 3]
    assert [item["score"] for item in as_json] == [round(r.score, 5) for r in expected]
    for item, result in zip(as_json, expected):
        assert item["precisions"] == pytest.approx(result.precisions, rel=1e-12)
    assert succeed(*base, "-b", cwd=files) == "".join(f"{r.score:.1f}\n" for r in expected)
    signature = CANONICAL_SIGNATURE.replace("contiguous[4]", "contiguous[2]")
    text = lines(succeed(*base, "-f", "text", cwd=files))
    assert text == [f"BLEU|{signature} = {r.score:.1f} {str(r).split(' ', 3)[3]}" for r in expected]
    tsv = lines(succeed(*base, "-f", "tsv", cwd=files))
    assert tsv[0].startswith("segment\tscore\tp1\tp2") and len(tsv) == 4
    assert [float(row.split("\t")[1]) for row in tsv[1:]] == [round(r.score, 1) for r in expected]


# -- Significance options ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def vector_systems(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("systems")
    return folder, write_vector_systems(folder)


def test_sample_counts_and_seed_as_sacrebleu(
    vector_systems: tuple[Path, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, vectors = vector_systems
    monkeypatch.setenv("SACREBLEU_SEED", "3")  # sacreBLEU's paired tests read their seed here
    named = [(name, vectors["hypotheses"][name]) for name in ("baseline", "sysB")]
    _, expected = PairedTest(
        named, {"BLEU": canonical_sacrebleu()}, vectors["references"], "bs", n_samples=50
    )()
    output = json.loads(
        succeed(
            "score",
            *CANONICAL,
            "-r",
            "ref.txt",
            "-i",
            "baseline.txt",
            "sysB.txt",
            "--paired-bs",
            "--paired-bs-n",
            "50",
            "--seed",
            "3",
            cwd=folder,
        )
    )
    assert output["significance"] == {"test": "bs", "samples": 50, "seed": 3}
    wanted = expected["BLEU"][1]
    assert output["systems"][1]["p_value"] == wanted.p_value
    # sacreBLEU's resampled precisions are float32 under numpy 2
    assert output["systems"][1]["mean"] == pytest.approx(wanted.mean, abs=1e-5)


def test_confidence_intervals_as_sacrebleu(vector_systems: tuple[Path, dict[str, Any]]) -> None:
    folder, vectors = vector_systems
    single = json.loads(
        succeed(
            "score",
            *CANONICAL,
            "-r",
            "ref.txt",
            "-i",
            "sysA.txt",
            "-ci",
            "--confidence-n",
            "40",
            cwd=folder,
        )
    )
    expected = canonical_sacrebleu().corpus_score(
        vectors["hypotheses"]["sysA"], vectors["references"], n_bootstrap=40
    )
    assert single["significance"] == {"test": "ci", "samples": 40, "seed": 12345}
    system = single["systems"][0]
    assert system["p_value"] is None
    # sacreBLEU's keys, rounded as sacreBLEU rounds them
    assert system["confidence_mean"] == round(expected._mean, 1)
    assert system["mean"] == pytest.approx(expected._mean, abs=1e-5)
    assert system["ci"] == pytest.approx(expected._ci, abs=1e-5)


def test_an_interval_counted_by_two_jobs_as_sacrebleu(shared: Any) -> None:
    # Two jobs count a part of the files each and send back each segment's statistics,
    # compactly; the interval is sacreBLEU's still.
    folder = shared("data", "wmt22", "de-en")
    hypotheses = (folder / "sys.LT22.txt").read_text("utf-8").splitlines()
    references = (folder / "ref.A.txt").read_text("utf-8").splitlines()
    output = json.loads(
        succeed(
            "score", "--jobs", "2", "-r", str(folder / "ref.A.txt"),
            "-i", str(folder / "sys.LT22.txt"), "-ci", "--confidence-n", "30", cwd=folder,
        )
    )  # fmt: skip
    expected = BLEU().corpus_score(hypotheses, [references], n_bootstrap=30)
    system = output["systems"][0]
    assert system["score"] == round(expected.score, 1)
    assert system["mean"] == pytest.approx(expected._mean, abs=1e-5)
    assert system["ci"] == pytest.approx(expected._ci, abs=1e-5)


def test_approximate_randomization_with_intervals(
    vector_systems: tuple[Path, dict[str, Any]],
) -> None:
    folder, _ = vector_systems
    trials = json.loads(
        succeed(
            "score",
            *CANONICAL,
            "-r",
            "ref.txt",
            "-i",
            "baseline.txt",
            "sysB.txt",
            "--paired-ar",
            "--paired-ar-n",
            "99",
            "-ci",
            "--confidence-n",
            "20",
            cwd=folder,
        )
    )
    assert trials["significance"]["confidence_resamples"] == 20
    # sysB is far better: no trial beats it, p = 1 / (99 + 1).
    assert trials["systems"][1]["p_value"] == 1 / 100
    assert all(system["mean"] is not None for system in trials["systems"])


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_default_paired_tests_give_the_vectors(
    vector_systems: tuple[Path, dict[str, Any]], test: str
) -> None:
    folder, vectors = vector_systems
    output = json.loads(
        succeed(
            "score",
            "-r",
            "ref.txt",
            "-i",
            "baseline.txt",
            "sysA.txt",
            "sysB.txt",
            f"--paired-{test}",
            cwd=folder,
        )
    )
    for system, wanted in zip(output["systems"], vectors[f"paired_{test}"]["results"], strict=True):
        assert system["p_value"] == wanted["p_value"]
        assert system["score"] == round(wanted["score"], 1)
        for field in ("mean", "ci"):
            if wanted[field] is None:
                assert system[field] is None
            else:  # sacreBLEU's resampled precisions are float32 under numpy 2
                assert system[field] == pytest.approx(wanted[field], abs=1e-5)


def test_default_confidence_interval_gives_the_vector(
    vector_systems: tuple[Path, dict[str, Any]],
) -> None:
    folder, vectors = vector_systems
    wanted = vectors["single_system_bootstrap"]
    output = json.loads(
        succeed("score", "-r", "ref.txt", "-i", "baseline.txt", "-ci", "-w", "2", cwd=folder)
    )
    system = output["systems"][0]
    assert system["score"] == round(wanted["score"], 2)
    assert system["mean"] == pytest.approx(wanted["mean"], abs=1e-5)
    assert system["ci"] == pytest.approx(wanted["ci"], abs=1e-5)


# -- The default preset is sacreBLEU's --------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        (),
        ("-lc",),
        ("-tok", "intl"),
        ("-tok", "char"),
        ("--smooth", "floor"),
        ("--smooth", "add-k", "--smooth-value", "2"),
        ("--smooth", "none", "-lc", "-tok", "none"),
    ],
)
def test_default_preset_prints_sacrebleus_numbers(
    vector_systems: tuple[Path, dict[str, Any]], options: tuple[str, ...]
) -> None:
    folder, _ = vector_systems
    # sacreBLEU calls the smoothing option --smooth-method (-s); the others are spelled alike.
    theirs_options = ["-s" if option == "--smooth" else option for option in options]
    ours = system_json(
        succeed("score", "-r", "ref.txt", "-i", "sysA.txt", "-w", "6", *options, cwd=folder)
    )
    theirs = json.loads(
        sacrebleu_cli("ref.txt", "-i", "sysA.txt", "-w", "6", *theirs_options, cwd=folder)
    )
    assert ours["score"] == theirs["score"]
    assert ours["verbose_score"] == theirs["verbose_score"]
    assert ours["signature"] == theirs["signature"]


def test_default_sentence_level_is_sacrebleus(vector_systems: tuple[Path, dict[str, Any]]) -> None:
    # sacreBLEU's --sentence-level turns effective order on; so does bleuprint's default.
    folder, _ = vector_systems
    ours = succeed("score", "-r", "ref.txt", "-i", "sysB.txt", "-sl", "-b", "-w", "6", cwd=folder)
    theirs = sacrebleu_cli("ref.txt", "-i", "sysB.txt", "-sl", "-b", "-w", "6", cwd=folder)
    assert lines(ours) == lines(theirs)


@pytest.mark.parametrize(
    ("pair", "hypotheses", "references"),
    [
        (
            "en-zh",
            "我们今天去公园散步。\n天气很好\uff01\n",
            "今天我们去公园散步了。\n天气非常好\uff01\n",
        ),
        (
            "en-ja",
            "私は学校に行きます。\n猫が好きです。\n",
            "私は学校へ行きます。\n私は猫が好きです。\n",
        ),
        (
            "en-ko",
            "나는 학교에 갑니다.\n고양이를 좋아해요.\n",
            "저는 학교에 갑니다.\n고양이를 좋아합니다.\n",
        ),
        ("de-en", "The cat sat on the mat.\n", "The cat sat on a mat.\n"),
    ],
)
def test_language_pair_picks_sacrebleus_tokenizer(
    tmp_path: Path, pair: str, hypotheses: str, references: str
) -> None:
    (tmp_path / "hyp.txt").write_text(hypotheses, encoding="utf-8")
    (tmp_path / "ref.txt").write_text(references, encoding="utf-8")
    ours = system_json(
        succeed("score", "-r", "ref.txt", "-i", "hyp.txt", "-l", pair, "-w", "6", cwd=tmp_path)
    )
    theirs = json.loads(
        sacrebleu_cli("ref.txt", "-i", "hyp.txt", "-l", pair, "-w", "6", cwd=tmp_path)
    )
    assert ours["score"] == theirs["score"]
    assert ours["signature"] == theirs["signature"]


def test_tab_separated_references_as_sacrebleu(
    vector_systems: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    # Two references per line in one file, the first with a space before the tab.
    _, vectors = vector_systems
    first = vectors["references"][0]
    second = [" ".join(reversed(reference.split())) for reference in first]
    rows = [f"{a} \t{b}" for a, b in zip(first, second)]
    (tmp_path / "refs.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (tmp_path / "sys.txt").write_text(
        "\n".join(vectors["hypotheses"]["sysA"]) + "\n", encoding="utf-8"
    )
    ours = system_json(
        succeed("score", "-r", "refs.tsv", "-nr", "2", "-i", "sys.txt", "-w", "6", cwd=tmp_path)
    )
    theirs = json.loads(
        sacrebleu_cli("refs.tsv", "-nr", "2", "-i", "sys.txt", "-w", "6", cwd=tmp_path)
    )
    assert ours["score"] == theirs["score"]
    assert ours["verbose_score"] == theirs["verbose_score"]
    assert ours["signature"] == theirs["signature"]  # nrefs:2


# -- Options the configuration refuses --------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("-i", "-", "-"), "standard input (-) can be read only once"),
        (
            ("-i", "hyp.txt", "better.txt", "-sl"),
            "--sentence-level scores one system, without significance tests",
        ),
        (
            ("-i", "hyp.txt", "--paired-bs"),
            "a paired test needs at least two systems: give the baseline first to -i",
        ),
        (
            ("-i", "hyp.txt", "better.txt", "--paired-bs", "--paired-ar"),
            "choose one paired test: --paired-bs or --paired-ar",
        ),
        (("-i", "hyp.txt", "-lc"), "the canonical preset has no --lowercase option"),
        (
            ("-i", "hyp.txt", "--preset", "russian", "--max-n", "2"),
            "the russian preset has no --max-n option",
        ),
        (
            ("-i", "hyp.txt", "--part", "nonsense"),
            "--part 'nonsense': expected FAMILY=SIGNATURE with FAMILY one of tok, ngram, match, "
            "len, ref, bp, smooth, weights",
        ),
        (
            ("-i", "hyp.txt", "--dask", "local", "-sl"),
            "--dask scores corpora of files: without --sentence-level, significance tests or "
            "--num-refs",
        ),
        (
            ("--dask", "local"),
            "--dask reads plain text files: name them with -i and -r (not standard input, not .gz)",
        ),
    ],
)
def test_bad_options(files: Path, arguments: tuple[str, ...], message: str) -> None:
    fails(
        run("score", *CANONICAL, "-r", "ref.txt", *arguments, cwd=files, stdin=b"a\nb\nc\n"),
        message,
    )


@pytest.mark.parametrize(
    ("arguments", "start"),
    [
        (("-tok", "nope"), "--tokenize nope: "),
        (("--smooth", "weird"), "--smooth-method weird: "),
    ],
)
def test_bad_values_name_their_option(files: Path, arguments: tuple[str, ...], start: str) -> None:
    completed = run("score", "-r", "ref.txt", "-i", "hyp.txt", *arguments, cwd=files)
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr.startswith(f"bleuprint: error: {start}")
    assert completed.stderr.count("\n") == 1


def test_unknown_tokenizer(files: Path) -> None:
    completed = run(
        "score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "-tok", "nope", cwd=files
    )
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr.startswith("bleuprint: error: unknown tok part 'nope' in signature")
    assert completed.stderr.count("\n") == 1 and "whitespace" in completed.stderr


def test_the_preset_option_says_where_the_presets_are_listed() -> None:
    completed = run("score", *CANONICAL, "--help")
    assert completed.returncode == 0
    # argparse wraps the help: compare without spaces
    assert "bleuprintpresetslists" in "".join(completed.stdout.split())


# -- The detokenize warning and --jobs ---------------------------------------------------------


def _tokenized_files(folder: Path, tokenized: int, after: str = "") -> None:
    """120 segments, ``tokenized`` of them ending in a tokenized full stop (then ``after``)."""
    hypotheses = [f"line {n} ends here .{after}" for n in range(tokenized)]
    hypotheses += [f"line {n} ends here." for n in range(tokenized, 120)]
    (folder / "hyp.txt").write_text("\n".join(hypotheses) + "\n", encoding="utf-8")
    (folder / "ref.txt").write_text("line 1 ends here.\n" * 120, encoding="utf-8")


_TOKENIZED = (
    "bleuprint: warning: {names}: 100 or more lines end in a tokenized period (' .'): it looks "
    "like you forgot to detokenize your test data, which may hurt your score (--force to "
    "silence this)\n"
)


@pytest.mark.parametrize(
    ("command", "tokenized", "options", "warned"),
    [
        ("score", 100, (), True),
        ("score", 99, (), False),  # sacreBLEU's threshold: 100 lines
        ("score", 100, ("--force",), False),
        ("score", 100, ("-q",), False),
        ("score", 100, ("-tok", "none"), False),  # tokenized on purpose
        ("score", 100, ("-sl", "-b"), True),
        ("compare", 100, ("-pbsn", "10"), True),
        ("explain", 100, (), True),
    ],
)
def test_the_detokenize_warning(
    tmp_path: Path, command: str, tokenized: int, options: tuple[str, ...], warned: bool
) -> None:
    _tokenized_files(tmp_path, tokenized)
    systems = ("hyp.txt", "hyp.txt") if command == "compare" else ("hyp.txt",)
    completed = run(command, "-r", "ref.txt", "-i", *systems, *options, cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    names = ", ".join(systems)
    assert completed.stderr == (_TOKENIZED.format(names=names) if warned else "")


@pytest.mark.parametrize("after", ["", " \u00a0\t\r", "\u3000", "\u200b"])
def test_the_warning_is_sacrebleus(tmp_path: Path, after: str) -> None:
    # sacreBLEU's own command warns at the same count (its message, on its logger), whatever
    # whitespace follows (a zero-width space is not whitespace: no warning).
    for tokenized, warned in [(100, after != "\u200b"), (99, False)]:
        _tokenized_files(tmp_path, tokenized, after)
        ours = run("score", "-r", "ref.txt", "-i", "hyp.txt", cwd=tmp_path)
        assert ("forgot to detokenize" in ours.stderr) is warned
        completed = sacrebleu_run("ref.txt", "-i", "hyp.txt", cwd=tmp_path)
        assert completed.returncode == 0
        assert (b"forgot to detokenize" in completed.stderr) is warned


@given(
    st.text(alphabet=st.sampled_from(" .a\n\t\r\x85\u3000\u200b\u2028é"), max_size=60),
    st.integers(0, 110),
)
def test_tokenized_lines_are_counted_as_sacrebleu_counts_them(text: str, found: int) -> None:
    # sacreBLEU's test, line by line: the line without its trailing whitespace ends in " .".
    # Counting stops once the warning's number (100) is reached with what was found before.
    expected = sum(line.rstrip().endswith(" .") for line in text.split("\n"))
    assert tokenized_lines(text.encode(), found) == max(0, min(expected, 100 - found))


@pytest.mark.parametrize(
    "options",
    [
        ("score", "-i", "hyp.txt", "better.txt"),
        ("score", "-i", "hyp.txt", "better.txt", "-pbs", "-pbsn", "30", "-ci"),
        ("score", "-i", "hyp.txt", "-sl"),
        ("score", "-i", "hyp.txt", "-sl", "-f", "json"),
        ("compare", "-i", "hyp.txt", "better.txt", "-pbsn", "30"),
    ],
    ids=["two systems", "paired", "sentence level", "sentence level in JSON", "compare"],
)
def test_jobs_change_nothing_but_the_processes(tmp_path: Path, options: tuple[str, ...]) -> None:
    # More segments than one counting chunk (16,384), so that several processes count.
    repeat = 6_000
    for name, text in [("ref.txt", REFERENCES), ("hyp.txt", HYPOTHESES), ("better.txt", BETTER)]:
        (tmp_path / name).write_text(text * repeat, encoding="utf-8")
    command, *rest = options
    one = succeed(command, "-r", "ref.txt", *rest, cwd=tmp_path)
    assert succeed(command, "-r", "ref.txt", *rest, "--jobs", "3", cwd=tmp_path) == one


@pytest.mark.parametrize(
    ("tokenized", "every", "warned"),
    [
        (100, 300, True),  # spread over every part: no part holds the warning's number
        (99, 300, False),
        (100, 1, True),  # all in the first part
    ],
)
def test_jobs_warn_of_tokenized_lines_in_every_part(
    tmp_path: Path, tokenized: int, every: int, warned: bool
) -> None:
    # 30,000 lines, counted by two processes in parts of 1,024 lines or more: each part
    # counts its tokenized lines only until they and those of the parts counted before make
    # the warning's number; the parts' sum makes it exactly where the lines do.
    hypotheses = [f"line {n} ends here." for n in range(30_000)]
    for n in range(tokenized):
        hypotheses[n * every] = f"line {n} ends here ."
    (tmp_path / "hyp.txt").write_text("\n".join(hypotheses) + "\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("line 1 ends here.\n" * 30_000, encoding="utf-8")
    completed = run("score", "-r", "ref.txt", "-i", "hyp.txt", "--jobs", "2", cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == (_TOKENIZED.format(names="hyp.txt") if warned else "")


def test_jobs_are_refused_with_dask(files: Path) -> None:
    fails(
        run("score", "-r", "ref.txt", "-i", "hyp.txt", "--dask", "local", "-j", "2", cwd=files),
        "--dask counts on the cluster's workers: not with --jobs",
    )


@pytest.mark.parametrize("smoothing", [("-s", "floor", "-sv", "2"), ("-s", "add-k", "-sv", "-0.5")])
def test_smooth_values_sacrebleu_takes_score_as_in_sacrebleu(
    tmp_path: Path, smoothing: tuple[str, ...]
) -> None:
    # Trigrams and 4-grams unmatched: the floor of 2 is used, and scores above sacreBLEU's floor
    # of 1 would; add-k's -0.5 leaves every precision positive here.
    (tmp_path / "ref.txt").write_text("a b c d e\nthe cat sat on the mat\n", "utf-8")
    (tmp_path / "hyp.txt").write_text("a b x d y\nthe cat sat on a mat\n", "utf-8")
    expected = sacrebleu_run("ref.txt", "-i", "hyp.txt", *smoothing, "-b", cwd=tmp_path)
    assert expected.returncode == 0, expected.stderr
    got = succeed("score", "-r", "ref.txt", "-i", "hyp.txt", *smoothing, "-b", cwd=tmp_path)
    assert got.encode() == expected.stdout


@pytest.mark.parametrize(
    "options",
    [(), ("-w", "3"), ("-ci", "-cin", "50"), ("-sl",), ("-lc", "-tok", "intl", "-s", "floor")],
    ids=["plain", "width", "confidence", "sentence-level", "options"],
)
def test_text_under_sacrebleus_preset_prints_sacrebleus_lines(
    files: Path, options: tuple[str, ...]
) -> None:
    # sacreBLEU's own lines, byte for byte; bleuprint's signature on a line of its own after.
    expected = sacrebleu_run("ref.txt", "-i", "hyp.txt", "-f", "text", *options, cwd=files)
    assert expected.returncode == 0, expected.stderr
    got = succeed("score", "-r", "ref.txt", "-i", "hyp.txt", "-f", "text", *options, cwd=files)
    *sacrebleus, bleuprints = got.splitlines(keepends=True)
    assert "".join(sacrebleus).encode() == expected.stdout
    assert bleuprints.startswith(f"BLEU|bleuprint:{__version__}|tok:")


def test_sentence_scores_of_misaligned_files_write_nothing(tmp_path: Path) -> None:
    # Sentence scores are written as they are counted: the line counts are checked first,
    # before the 4,999 segments the files have in common would be written.
    (tmp_path / "hyp.txt").write_text("a b c\n" * 5_000, encoding="utf-8")
    (tmp_path / "ref.txt").write_text("a b d\n" * 4_999, encoding="utf-8")
    completed = run("score", "-r", "ref.txt", "-i", "hyp.txt", "-sl", cwd=tmp_path)
    assert (completed.returncode, completed.stdout) == (2, "")
    assert completed.stderr == (
        "bleuprint: error: hyp.txt has 5000 lines but ref.txt has 4999: every file needs one "
        "line per segment\n"
    )
