"""``bleuprint score`` and ``bleuprint compare`` through a real subprocess.

Expected values come from bleuprint's Python API for the same configuration (the CLI must add
nothing and lose nothing), from sacreBLEU run as a test dependency, or from hand computation.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bleuprint import BLEUScore, brevity, presets, tokenizers
from bleuprint.compat.sacrebleu import signature as sacrebleu_signature

HYPOTHESES = "the cat sat on a mat\nthe dog barked at night\nit rained\n"
REFERENCES = "the cat sat on the mat\nthe dog barked all night long\nit rained\n"
BETTER = "the cat sat on the mat\nthe dog barked all night\nit rained\n"
# Most tests pin the canonical preset, which they compute by hand or with sacreBLEU's
# tokenize="none", smooth_method="none"; the default preset has tests of its own.
CANONICAL = ("--preset", "canonical")


def run(
    *arguments: str, stdin: bytes = b"", cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bleuprint.cli", *arguments],
        input=stdin.decode("utf-8", "surrogateescape") if stdin else "",
        capture_output=True,
        check=False,
        text=True,
        cwd=cwd,
        env=env,
        encoding="utf-8",
        errors="surrogateescape",
    )


def succeed(*arguments: str, cwd: Path, stdin: bytes = b"") -> str:
    completed = run(*arguments, cwd=cwd, stdin=stdin)
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    return completed.stdout


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "hyp.txt").write_text(HYPOTHESES, encoding="utf-8")
    (tmp_path / "ref.txt").write_text(REFERENCES, encoding="utf-8")
    (tmp_path / "better.txt").write_text(BETTER, encoding="utf-8")
    return tmp_path


def lines(text: str) -> list[str]:
    return text.splitlines()


REFERENCE_LISTS = [[line] for line in lines(REFERENCES)]


# -- JSON output is the API's result ------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "engine"),
    [
        ((), BLEUScore.canonical()),
        (("--max-n", "2"), BLEUScore.canonical(max_n=2)),
        (("--preset", "unigram"), BLEUScore.unigram()),
        (("--preset", "russian"), BLEUScore.russian()),
        (("-tok", "letters"), BLEUScore.canonical(tokenizer=tokenizers.Letters())),
        (("--smooth", "none"), BLEUScore.canonical()),
        (
            ("--part", "ref=shortest", "--part", "len=chars"),
            BLEUScore.canonical(reference_length=brevity.Shortest(), length=brevity.Characters()),
        ),
        (("--preset", "sacrebleu"), BLEUScore.sacrebleu()),
        (("--preset", "sacrebleu-sentence"), BLEUScore.sacrebleu_sentence()),
        (
            ("--preset", "sacrebleu", "-lc", "-tok", "intl", "--smooth", "floor"),
            BLEUScore.sacrebleu(lowercase=True, tokenize="intl", smooth_method="floor"),
        ),
        (
            ("--preset", "sacrebleu", "--smooth", "add-k", "--smooth-value", "0.5"),
            BLEUScore.sacrebleu(smooth_method="add-k", smooth_value=0.5),
        ),
        (
            ("--preset", "sacrebleu", "--effective-order", "--max-n", "6"),
            BLEUScore.sacrebleu(effective_order=True, max_ngram_order=6),
        ),
    ],
)
def test_json_is_the_api_result(files: Path, options: tuple[str, ...], engine: BLEUScore) -> None:
    output = json.loads(
        succeed(
            "score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "-w", "4", *options, cwd=files
        )
    )
    expected = engine.corpus_score(lines(HYPOTHESES), REFERENCE_LISTS)
    assert output["name"] == "BLEU"
    assert output["score"] == float(f"{100 * expected.score:.4f}")
    assert output["signature"] == str(expected.signature)
    assert output["precisions"] == [100 * p for p in expected.precisions]
    assert output["bp"] == expected.brevity_penalty
    assert output["ratio"] == expected.ratio
    assert (output["hyp_len"], output["ref_len"]) == (
        expected.hypothesis_length,
        expected.reference_length,
    )
    assert (output["counts"], output["totals"]) == (list(expected.matches), list(expected.totals))
    if "sacrebleu" in options:
        assert output["sacrebleu_signature"] == sacrebleu_signature(expected)


def test_json_verbose_score_by_hand(files: Path) -> None:
    # Unigrams 11/13, bigrams 6/10, trigrams 3/7, 4-grams 1/5; 13 tokens against 14.
    output = json.loads(succeed("score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", cwd=files))
    assert output["verbose_score"] == (
        "84.6/60.0/42.9/20.0 (BP = 0.926 ratio = 0.929 hyp_len = 13 ref_len = 14)"
    )
    score = np.exp(1 - 14 / 13) * (11 / 13 * 6 / 10 * 3 / 7 * 1 / 5) ** 0.25
    assert output["score"] == round(100 * score, 1)


def test_several_references(files: Path) -> None:
    (files / "ref2.txt").write_text("a cat sat on a mat\nthe dog\nit rained\n", encoding="utf-8")
    output = json.loads(
        succeed(
            "score", *CANONICAL, "-r", "ref.txt", "ref2.txt", "-i", "hyp.txt", "-w", "6", cwd=files
        )
    )
    references = [
        list(pair)
        for pair in zip(lines(REFERENCES), ["a cat sat on a mat", "the dog", "it rained"])
    ]
    expected = BLEUScore.canonical().corpus_score(lines(HYPOTHESES), references)
    assert output["score"] == round(100 * expected.score, 6)
    assert output["signature"].endswith("nrefs:2")


def test_standard_input_is_the_default_system(files: Path) -> None:
    from_file = succeed("score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", cwd=files)
    from_stdin = succeed("score", *CANONICAL, "-r", "ref.txt", cwd=files, stdin=HYPOTHESES.encode())
    assert json.loads(from_stdin) == {**json.loads(from_file), "system": "<stdin>"}
    explicit = succeed(
        "score", *CANONICAL, "-r", "ref.txt", "-i", "-", cwd=files, stdin=HYPOTHESES.encode()
    )
    assert explicit == from_stdin


# -- Output formats -------------------------------------------------------------------------


def test_text_format_and_width(files: Path) -> None:
    expected = BLEUScore.canonical().corpus_score(lines(HYPOTHESES), REFERENCE_LISTS)
    output = succeed(
        "score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "-f", "text", "-w", "3", cwd=files
    )
    assert output == (
        f"BLEU|{expected.signature} = {100 * expected.score:.3f} "
        "84.6/60.0/42.9/20.0 (BP = 0.926 ratio = 0.929 hyp_len = 13 ref_len = 14)\n"
    )


def test_score_only(files: Path) -> None:
    expected = BLEUScore.canonical().corpus_score(lines(HYPOTHESES), REFERENCE_LISTS).score
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
    better = BLEUScore.canonical().corpus_score(lines(BETTER), REFERENCE_LISTS).score
    assert output == f"{100 * expected:.2f}\n{100 * better:.2f}\n"


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
    expected = BLEUScore.canonical(max_n=2).corpus_score(lines(HYPOTHESES), REFERENCE_LISTS)
    assert row[0] == "hyp.txt"
    assert float(row[1]) == round(100 * expected.score, 1)
    assert [float(cell) for cell in row[2:4]] == [100 * p for p in expected.precisions]
    assert float(row[4]) == expected.brevity_penalty and row[6:] == ["13", "14"]


def test_several_systems_make_a_table(files: Path) -> None:
    output = succeed(
        "score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "better.txt", "-f", "text", cwd=files
    )
    table = lines(output)
    engine = BLEUScore.canonical()
    assert table[0].split() == ["system", "BLEU"]
    for row, (name, text) in zip(table[2:4], [("hyp.txt", HYPOTHESES), ("better.txt", BETTER)]):
        score = engine.corpus_score(lines(text), REFERENCE_LISTS).score
        assert row.split() == [name, f"{100 * score:.1f}"]
    assert table[-1] == f"BLEU|{engine.corpus_score(lines(BETTER), REFERENCE_LISTS).signature}"
    document = json.loads(
        succeed("score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "better.txt", cwd=files)
    )
    assert [system["system"] for system in document["systems"]] == ["hyp.txt", "better.txt"]
    assert document["significance"] is None


# -- Sentence level -------------------------------------------------------------------------


def test_sentence_level_in_every_format(files: Path) -> None:
    engine = BLEUScore.canonical(max_n=2)
    expected = engine.sentence_scores(lines(HYPOTHESES), REFERENCE_LISTS)
    base = ("score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "--max-n", "2", "-sl")
    as_json = [json.loads(line) for line in lines(succeed(*base, "-w", "5", cwd=files))]
    assert [item["segment"] for item in as_json] == [1, 2, 3]
    assert [item["score"] for item in as_json] == [round(100 * r.score, 5) for r in expected]
    assert [item["precisions"] for item in as_json] == [
        [100 * p for p in r.precisions] for r in expected
    ]
    assert succeed(*base, "-b", cwd=files) == "".join(f"{100 * r.score:.1f}\n" for r in expected)
    text = lines(succeed(*base, "-f", "text", cwd=files))
    assert text == [
        f"BLEU|{r.signature} = {100 * r.score:.1f} {str(r).split(' ', 3)[3]}" for r in expected
    ]
    tsv = lines(succeed(*base, "-f", "tsv", cwd=files))
    assert tsv[0].startswith("segment\tscore\tp1\tp2") and len(tsv) == 4


def test_plot_without_matplotlib_is_a_clear_error(files: Path) -> None:
    hide_matplotlib = (
        "import sys; sys.modules['matplotlib'] = None; "
        "from bleuprint.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    completed = subprocess.run(
        [
            sys.executable,
            "-c",
            hide_matplotlib,
            "compare",
            "-r",
            "ref.txt",
            "-i",
            "hyp.txt",
            "better.txt",
            "--plot",
            "out.png",
        ],
        capture_output=True,
        text=True,
        cwd=files,
        check=False,
    )
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr == (
        "bleuprint: error: --plot needs matplotlib, which is not installed: "
        "pip install 'bleuprint[plot]'\n"
    )
    assert not (files / "out.png").exists()


# -- Reading files as sacreBLEU does ---------------------------------------------------------


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [(CANONICAL, ("-tok", "none", "-s", "none")), ((), ())],
    ids=["canonical", "default"],
)
def test_bom_crlf_and_unicode_whitespace_as_sacrebleu(
    tmp_path: Path, ours: tuple[str, ...], theirs: tuple[str, ...]
) -> None:
    # A BOM kept as text, CRLF ends, a trailing no-break space, U+2028 and NEL inside lines,
    # a lone CR inside a line, leading spaces: sacreBLEU's own command line is the reference.
    (tmp_path / "hyp.txt").write_bytes(
        b"\xef\xbb\xbfthe cat\xc2\xa0sat \r\na\xe2\x80\xa8b c\xc2\x85d\r\n"
        b"lone\rcr here\n  lead  space\xc2\xa0\n"
    )
    (tmp_path / "ref.txt").write_bytes(b"the cat sat\na b c d\nlone cr here\nlead space\n")
    command = [sys.executable, "-m", "sacrebleu", "ref.txt", "-i", "hyp.txt", "-w", "6"]
    sacrebleu = subprocess.run(
        [*command, *theirs], capture_output=True, text=True, cwd=tmp_path, check=True
    )
    completed = run("score", *ours, "-r", "ref.txt", "-i", "hyp.txt", "-w", "6", cwd=tmp_path)
    expected = json.loads(sacrebleu.stdout)
    output = json.loads(completed.stdout)
    assert output["score"] == expected["score"]
    assert output["verbose_score"] == expected["verbose_score"]
    assert completed.stderr == (
        "bleuprint: warning: hyp.txt:1 starts with a byte-order mark (U+FEFF); like sacreBLEU, "
        "bleuprint keeps it as part of the first segment's text\n"
    )
    quiet = run("score", *ours, "-r", "ref.txt", "-i", "hyp.txt", "-q", cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == ""


# -- Bad input: one line on stderr, status 2, nothing on stdout -----------------------------


def fails(completed: subprocess.CompletedProcess[str], message: str) -> None:
    assert completed.returncode == 2, completed.stderr
    assert completed.stdout == ""
    assert completed.stderr == f"bleuprint: error: {message}\n"


def test_files_of_different_lengths(files: Path) -> None:
    (files / "short.txt").write_text("one line\n", encoding="utf-8")
    fails(
        run("score", *CANONICAL, "-r", "ref.txt", "-i", "short.txt", cwd=files),
        "short.txt has 1 line but ref.txt has 3: every file needs one line per segment",
    )
    fails(
        run("score", *CANONICAL, "-r", "ref.txt", "short.txt", "-i", "hyp.txt", cwd=files),
        "hyp.txt has 3 lines but short.txt has 1: every file needs one line per segment",
    )


def test_undecodable_bytes(files: Path) -> None:
    (files / "bad.txt").write_bytes(b"fine\nalso fine\nbroken \xe2\x28\xa1 here\n")
    fails(
        run("score", *CANONICAL, "-r", "ref.txt", "-i", "bad.txt", cwd=files),
        "bad.txt:3: not valid UTF-8 (byte 8 of the line is 0xe2)",
    )
    fails(
        run("score", *CANONICAL, "-r", "ref.txt", stdin=b"ok\n\xff\n", cwd=files),
        "<stdin>:2: not valid UTF-8 (byte 1 of the line is 0xff)",
    )


def test_a_line_without_its_tab_separated_references(files: Path) -> None:
    (files / "refs.tsv").write_text("a\tb\nc\td\ne\n", encoding="utf-8")
    fails(
        run("score", "-r", "refs.tsv", "-nr", "2", "-i", "hyp.txt", cwd=files),
        "refs.tsv:3: expected 2 tab-separated references, found 1",
    )


def test_missing_empty_and_directory(files: Path) -> None:
    (files / "empty.txt").write_bytes(b"")
    (files / "folder").mkdir()
    fails(
        run("score", *CANONICAL, "-r", "nope.txt", "-i", "hyp.txt", cwd=files),
        "nope.txt: no such file",
    )
    fails(
        run("score", *CANONICAL, "-r", "ref.txt", "-i", "empty.txt", cwd=files),
        "empty.txt: the file is empty",
    )
    fails(
        run("score", *CANONICAL, "-r", "folder", "-i", "hyp.txt", cwd=files),
        "folder: is a directory, not a file",
    )
    fails(run("score", *CANONICAL, "-r", "ref.txt", cwd=files), "<stdin>: the file is empty")
    (files / "hyp.txt.gz").write_bytes(b"not compressed\n")
    fails(
        run("score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt.gz", cwd=files),
        "hyp.txt.gz: not a valid gzip file",
    )


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads any file")
def test_unreadable_file(files: Path) -> None:
    secret = files / "secret.txt"
    secret.write_text("x\n", encoding="utf-8")
    secret.chmod(0)
    fails(
        run("score", *CANONICAL, "-r", "ref.txt", "-i", "secret.txt", cwd=files),
        "secret.txt: permission denied",
    )


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
        (("--smooth", "floor", "--smooth-value", "-1"), "--smooth-value -1.0: "),
        (("--smooth", "weird"), "--smooth weird: "),
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


@pytest.mark.parametrize(
    ("command", "arguments", "message"),
    [
        ("score", ("-i", "hyp.txt"), "the following arguments are required: -r/--references"),
        ("score", ("-w", "-1"), "argument -w/--width: must be at least 0, got -1"),
        ("score", ("--seed", "-5"), "argument --seed: must be at least 0, got -5"),
        ("score", ("--seed", "x"), "argument --seed: 'x' is not a whole number"),
        ("score", ("--max-n", "0"), "argument --max-n: must be at least 1, got 0"),
        ("score", ("--paired-bs-n", "0"), "argument --paired-bs-n: must be at least 1, got 0"),
        ("score", ("--paired-ar-n", "0"), "argument --paired-ar-n: must be at least 1, got 0"),
        ("compare", ("--confidence-n", "0"), "argument --confidence-n: must be at least 1, got 0"),
        ("explain", ("--worst", "0"), "argument --worst: must be at least 1, got 0"),
        ("explain", ("--segment", "0"), "argument --segment: must be at least 1, got 0"),
        ("explain", ("--segment", "1", "--worst", "2"), "not allowed with argument --segment"),
    ],
)
def test_usage_errors_are_one_line(
    files: Path, command: str, arguments: tuple[str, ...], message: str
) -> None:
    completed = run(
        command, *arguments, *(("-r", "ref.txt") if "-i" not in arguments else ()), cwd=files
    )
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr.startswith(f"bleuprint {command}: error: ")
    assert completed.stderr.count("\n") == 1 and message in completed.stderr


def test_output_is_utf8_whatever_the_locale(files: Path) -> None:
    # A Latin-1 terminal cannot encode "μ ± 95% CI"; bleuprint writes UTF-8 regardless.
    environment = {**os.environ, "PYTHONIOENCODING": "latin-1", "LC_ALL": "C"}
    completed = run(
        "compare",
        *CANONICAL,
        "-r",
        "ref.txt",
        "-i",
        "hyp.txt",
        "better.txt",
        "-f",
        "text",
        "--paired-bs-n",
        "10",
        cwd=files,
        env=environment,
    )
    assert completed.returncode == 0, completed.stderr
    assert "μ ± 95% CI" in completed.stdout


def test_a_closed_pipe_ends_quietly(files: Path) -> None:
    # The reader is gone before bleuprint writes (as with "| head"): no traceback, status 1.
    process = subprocess.Popen(
        [sys.executable, "-m", "bleuprint.cli", "score", "-r", "ref.txt", "-i", "hyp.txt"],
        cwd=files,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    error = process.stderr.read()
    assert process.wait() == 1
    assert error == b""


def test_presets_listed_for_the_preset_option() -> None:
    completed = run("score", *CANONICAL, "--help")
    assert completed.returncode == 0
    for name in presets.PRESETS:
        assert name in completed.stdout
