"""``bleuprint sacrebleu`` beside the real ``sacrebleu`` command: the same standard output, byte
for byte, on the WMT22 files of ``../shared``; and its refusals, one line and exit status 2."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from bleuprint._resampling import RowFile
from tests.cli_helpers import both_commands, sacrebleu_run

SYSTEMS = ("sys.JDExploreAcademy.txt", "sys.LT22.txt", "sys.Online-A.txt")
MORE_SYSTEMS = ("sys.Online-B.txt", "sys.Online-G.txt", "sys.Online-W.txt")
# Seven systems: the six of de-en and its second reference (distinct lines, no repeats).
SEVEN = ["SYS1", "SYS2", "SYS3", "SYS4", "SYS5", "SYS6", "REF2"]

# Options after the references; "SYS1" and so on name the systems above.
OPTION_SETS = {
    "json": ["-i", "SYS1"],
    "two-references-text": ["REF2", "-i", "SYS1", "-f", "text"],
    "score-only-width": ["-i", "SYS1", "-b", "-w", "3"],
    "smoothing-lowercase-intl": ["-i", "SYS1", "-s", "add-k", "-sv", "2", "-lc", "-tok", "intl"],
    "floor-none-tokenizer": ["-i", "SYS1", "-s", "floor", "-tok", "none", "-f", "text"],
    "sentence-level": ["-i", "SYS1", "-sl", "-w", "2"],
    "sentence-level-score-only": ["-i", "SYS1", "-sl", "-b"],
    "confidence-json": ["-i", "SYS1", "-ci", "-cin", "200"],
    "confidence-text-short": ["-i", "SYS1", "--confidence", "-cin", "200", "-f", "text", "-sh"],
    # Fewer than two resamples: sacreBLEU gives the plain score, with no test in the signature.
    "confidence-one-resample": ["-i", "SYS1", "-ci", "-cin", "1"],
    "confidence-no-resamples-text": ["-i", "SYS1", "-ci", "-cin", "0", "-f", "text"],
    "confidence-negative-resamples": ["-i", "SYS1", "-ci", "-cin", "-5"],
    "systems-json": ["-i", "SYS1", "SYS2", "SYS3"],
    "systems-text": ["-i", "SYS1", "SYS2", "SYS3", "-f", "text", "-w", "2"],
    "systems-latex": ["-i", "SYS1", "SYS2", "-f", "latex"],
    "paired-bs-json": ["-i", "SYS1", "SYS2", "SYS3", "-pbs", "-pbsn", "200"],
    "paired-bs-text": ["-i", "SYS1", "SYS2", "SYS3", "--paired-bs", "-pbsn", "200", "-f", "text"],
    "paired-bs-default-latex": ["-i", "SYS1", "SYS2", "-pbs", "-f", "latex"],
    "paired-bs-one-resample": ["-i", "SYS1", "SYS2", "-pbs", "-pbsn", "1"],
    "paired-ar-json": ["-i", "SYS1", "SYS2", "SYS3", "-par", "-parn", "500"],
    # Seven systems: the resamples, drawn alike for every test, are drawn once for all of them.
    "paired-bs-seven-systems-json": ["-i", *SEVEN, "-pbs", "-pbsn", "300"],
    "paired-bs-seven-systems-text": ["-i", *SEVEN, "-pbs", "-pbsn", "40", "-f", "text", "-w", "3"],
    "paired-ar-seven-systems-json": ["-i", *SEVEN, "-par", "-parn", "300"],
    # The default 10,000 trials on two systems (three, with fewer trials, above): each system
    # against the baseline is the slowest run of both commands.
    "paired-ar-default-text": ["-i", "SYS1", "SYS2", "-par", "-f", "text", "-sh"],
    "abbreviated-option": ["-i", "SYS1", "--smooth-m", "none", "--score-o"],
    # -d with files: sacreBLEU prints text, not JSON, and says it found no subsets
    "detail": ["-i", "SYS1", "-d"],
    "detail-confidence-score-only": ["-i", "SYS1", "-d", "-ci", "-cin", "50", "-b"],
    "detail-systems": ["-i", "SYS1", "SYS2", "--detail"],
}


def _expand(arguments: list[str], folder: Path) -> list[str]:
    systems = enumerate((*SYSTEMS, *MORE_SYSTEMS), start=1)
    names = {f"SYS{n}": str(folder / name) for n, name in systems}
    names["REF2"] = str(folder / "ref.B.txt")
    return [names.get(argument, argument) for argument in arguments]


@pytest.fixture(scope="module")
def de_en(shared: object) -> Path:
    return shared("data", "wmt22", "de-en")  # type: ignore[operator, no-any-return]


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_same_output_as_sacrebleu(de_en: Path, name: str) -> None:
    arguments = [str(de_en / "ref.A.txt"), *_expand(OPTION_SETS[name], de_en)]
    expected, got = both_commands(arguments)
    assert expected.returncode == 0, expected.stderr
    assert got.returncode == 0, got.stderr
    assert got.stdout == expected.stdout


def test_standard_input_and_environment(de_en: Path, tmp_path: Path) -> None:
    # Two systems, tab-separated on standard input; SACREBLEU_FORMAT overrides -f.
    lines = zip(*((de_en / name).read_text("utf-8").splitlines() for name in SYSTEMS[:2]))
    stdin = "".join("\t".join(pair) + "\n" for pair in lines).encode("utf-8")
    for env in ({}, {"SACREBLEU_FORMAT": "text"}, {"SACREBLEU_SEED": "7"}):
        expected, got = both_commands(
            [str(de_en / "ref.A.txt"), "-pbs", "-pbsn", "100"], stdin=stdin, env=env
        )
        assert (got.returncode, got.stdout) == (0, expected.stdout), env


@pytest.mark.parametrize("encoding", ["utf-8", "latin-1"])
@pytest.mark.parametrize(
    ("systems", "options"), [(2, ["-f", "text"]), (1, ["-sl"])], ids=["two systems", "-sl"]
)
def test_standard_input_line_ends_and_encoding(
    de_en: Path, tmp_path: Path, encoding: str, systems: int, options: list[str]
) -> None:
    # sacreBLEU ends standard input's lines at \r\n and \r too (its files' only at \n) and
    # decodes them in -e's encoding; bleuprint writes its columns to files, read as files are.
    columns = [(de_en / name).read_text("utf-8").splitlines()[:300] for name in SYSTEMS[:systems]]
    ends = ["\r\n", "\r", "\n"]
    text = "".join(
        "\t".join(fields) + ends[number % 3] for number, fields in enumerate(zip(*columns))
    )
    references = (de_en / "ref.A.txt").read_text("utf-8").splitlines()[:300]
    reference = tmp_path / "ref.txt"
    reference.write_bytes("".join(f"{line}\n" for line in references).encode(encoding, "replace"))
    expected, got = both_commands(
        [str(reference), "-e", encoding, *options], stdin=text.encode(encoding, "replace")
    )
    assert expected.returncode == 0, expected.stderr
    assert (got.returncode, got.stdout) == (0, expected.stdout)


def test_an_encoding_whose_line_ends_are_not_one_byte(de_en: Path, tmp_path: Path) -> None:
    # In UTF-16 a byte 10 need not end a line: the lines are counted as decoded (-sl compares
    # the files' lengths before it writes anything).
    for name, source in (("ref.txt", "ref.A.txt"), ("hyp.txt", SYSTEMS[0])):
        lines = (de_en / source).read_text("utf-8").splitlines()[:200]
        (tmp_path / name).write_bytes("".join(f"{line}\n" for line in lines).encode("utf-16"))
    arguments = [str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"), "-e", "utf-16"]
    for options in ([], ["-sl"]):
        expected, got = both_commands([*arguments, *options])
        assert expected.returncode == 0, expected.stderr
        assert (got.returncode, got.stdout) == (0, expected.stdout), options


@pytest.mark.parametrize(
    ("encoding", "text"),
    [("cp1252", "one\ntwo\n".encode("cp1252") + b"\x81\n"), ("utf-16", "one\ntwo\n\ud800\n")],
)
def test_a_byte_not_of_the_encoding_is_named_by_file_and_line(
    tmp_path: Path, encoding: str, text: bytes | str
) -> None:
    # sacreBLEU stops with a traceback; bleuprint names the line, counted as decoded.
    data = text if isinstance(text, bytes) else text.encode("utf-16", "surrogatepass")
    (tmp_path / "hyp.txt").write_bytes(data)
    (tmp_path / "ref.txt").write_bytes("one\ntwo\nthree\n".encode(encoding))
    command = ["sacrebleu", "ref.txt", "-i", "hyp.txt", "-e", encoding]
    result = subprocess.run(
        [sys.executable, "-m", "bleuprint.cli", *command],
        capture_output=True,
        check=False,
        cwd=tmp_path,
    )
    assert (result.returncode, result.stdout) == (2, b"")
    message = result.stderr.decode()
    assert message.startswith(f"bleuprint: error: hyp.txt:3: not valid {encoding}: ")
    assert message.count("\n") == 1


def test_standard_input_of_uneven_columns(tmp_path: Path) -> None:
    (tmp_path / "ref.txt").write_text("a b\nc d\n", "utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "bleuprint.cli", "sacrebleu", "ref.txt"],
        input=b"a b\tx\r\nc d\n",
        capture_output=True,
        check=False,
        cwd=tmp_path,
    )
    assert (result.returncode, result.stdout) == (2, b"")
    assert result.stderr.decode() == (
        "bleuprint: error: <stdin>: line 2 has 1 tab-separated systems, line 1 has 2\n"
    )


def test_the_seed_is_read_only_for_a_test(de_en: Path) -> None:
    # sacreBLEU ignores a malformed $SACREBLEU_SEED when nothing is resampled.
    arguments = [str(de_en / "ref.A.txt"), "-i", str(de_en / SYSTEMS[0]), "-b"]
    expected, got = both_commands(arguments, env={"SACREBLEU_SEED": "not a number"})
    assert (got.returncode, got.stdout) == (0, expected.stdout)
    assert expected.returncode == 0


def test_tab_separated_references_and_encoding(de_en: Path, tmp_path: Path) -> None:
    references = zip(
        *((de_en / name).read_text("utf-8").splitlines() for name in ("ref.A.txt", "ref.B.txt"))
    )
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("".join("\t".join(pair) + "\n" for pair in references), "utf-8")
    expected, got = both_commands([str(tsv), "-nr", "2", "-i", str(de_en / SYSTEMS[0])])
    assert (got.returncode, got.stdout) == (0, expected.stdout)
    # A Latin-1 file read with -e.
    latin = tmp_path / "ref.latin1"
    hypothesis = tmp_path / "sys.latin1"
    for source, target in ((de_en / "ref.A.txt", latin), (de_en / SYSTEMS[1], hypothesis)):
        text = source.read_text("utf-8").encode("latin-1", "replace")
        target.write_bytes(text)
    expected, got = both_commands(
        [str(latin), "-i", str(hypothesis), "-e", "latin-1", "-f", "text"]
    )
    assert (got.returncode, got.stdout) == (0, expected.stdout)


@pytest.mark.parametrize("pair", ["en-zh", "en-ja"])
def test_language_pair_picks_the_tokenizer(shared: object, pair: str) -> None:
    folder: Path = shared("data", "wmt22", pair)  # type: ignore[operator]
    system = sorted(folder.glob("sys.*.txt"))[0]
    expected, got = both_commands([str(folder / "ref.A.txt"), "-l", pair, "-i", str(system)])
    assert (got.returncode, got.stdout) == (0, expected.stdout)


@pytest.mark.parametrize(
    ("arguments", "names"),
    [
        (["-m", "bleu", "ter"], "-m ter"),
        (["-m", "chrf", "ter"], "-m ter"),
        (["-t", "wmt22", "-l", "de-en"], "-t/--test-set"),
        (["--echo", "src"], "--echo"),
    ],
)
def test_refusals(tmp_path: Path, arguments: list[str], names: str) -> None:
    message = _refused(tmp_path, arguments)
    assert message.startswith(f"bleuprint: error: {names}")
    assert "sacrebleu" in message  # what to do instead


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["-i", "hyp.txt", "other.txt", "-pbs", "-pbsn", "100000000"],
            "paired bootstrap resampling, 100000000 resamples, seed 12345, 2 systems: "
            "200,000,000 resampled corpora, more than the 100,000,000 a test may score",
        ),
        (
            ["-i", "hyp.txt", "-ci", "-cin", "200000000"],
            "bootstrap confidence intervals, 200000000 resamples, seed 12345, 1 system: "
            "200,000,000 resampled corpora",
        ),
    ],
)
def test_tests_too_large_are_refused_before_they_run(
    tmp_path: Path, arguments: list[str], message: str
) -> None:
    # sacreBLEU would try to allocate the whole resamples x segments matrix (here 800 MB, and
    # 2.4 GB of scores to come); bleuprint draws in blocks but refuses what would take hours.
    refused = _refused(tmp_path, arguments)
    assert refused.startswith(f"bleuprint: error: {message}")
    assert refused.rstrip().endswith(("lower --paired-bs-n", "lower --confidence-n"))


def _refused(tmp_path: Path, arguments: list[str]) -> str:
    """The one line of standard error of a refused run (exit status 2, nothing printed), on
    one-line files ``ref.txt``, ``hyp.txt`` and ``other.txt`` (and standard input)."""
    for name in ("ref.txt", "hyp.txt", "other.txt"):
        (tmp_path / name).write_text("a b c\n", "utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "bleuprint.cli", "sacrebleu", "ref.txt", *arguments],
        input=b"a b c\n",
        capture_output=True,
        check=False,
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert result.stdout == b""
    message = result.stderr.decode("utf-8")
    assert message.count("\n") == 1
    return message


@pytest.mark.parametrize("method", ["floor", "add-k"])
@pytest.mark.parametrize("value", ["2", "10", "-1", "0", "nan"])
def test_every_smooth_value_sacrebleu_takes(tmp_path: Path, method: str, value: str) -> None:
    # One segment without a matched trigram or 4-gram, one matched throughout: a floor above 1
    # scores as sacreBLEU scores it; where sacreBLEU fails (a negative floor: a math domain
    # error) or prints NaN, bleuprint says why, in one line.
    (tmp_path / "ref.txt").write_text("a b c d e\nthe cat sat on the mat\n", "utf-8")
    (tmp_path / "hyp.txt").write_text("a b x d y\nthe cat sat on the mat\n", "utf-8")
    for extra in ([], ["-sl"], ["-f", "text"]):
        arguments = ["ref.txt", "-i", "hyp.txt", "-s", method, "-sv", value, *extra]
        expected = sacrebleu_run(*arguments, cwd=tmp_path)
        got = subprocess.run(
            [sys.executable, "-m", "bleuprint.cli", "sacrebleu", *arguments],
            capture_output=True, check=False, cwd=tmp_path,
        )  # fmt: skip
        # NaN is printed "= nan" in a line, NaN in JSON (the signature's floor[nan] is not it)
        finite = expected.returncode == 0 and not re.search(rb"= nan|NaN", expected.stdout)
        if finite:
            assert (got.returncode, got.stdout) == (0, expected.stdout), got.stderr
        else:
            assert got.returncode == 2
            assert got.stderr.endswith(b"bleuprint gives no score\n"), got.stderr


@pytest.mark.parametrize("options", ["confidence-json", "paired-bs-json"])
def test_bootstrap_on_rows_kept_in_a_file_a_column_at_a_time(
    options: str,
    de_en: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The bootstrap adds sacreBLEU's float32 rows in the order of its draws: rows kept in a
    # file (past IN_MEMORY bytes; here from the first row) are read back a column at a time
    # (past _COLUMNS_IN_MEMORY bytes; here one byte), the draws made again for each.
    from bleuprint import _resampling  # noqa: PLC0415
    from bleuprint.cli import main  # noqa: PLC0415 - the command in this process
    from bleuprint.cli import sacrebleu as command  # noqa: PLC0415

    monkeypatch.setattr(command, "IN_MEMORY", 0)
    monkeypatch.setattr(_resampling, "_COLUMNS_IN_MEMORY", 1)
    arguments = [str(de_en / "ref.A.txt"), *_expand(OPTION_SETS[options], de_en)]
    groups = _resampling._ColumnGroups
    with mock.patch.object(groups, "of", side_effect=groups.of) as grouped:
        assert main(["sacrebleu", *arguments, "-q"]) == 0
    assert grouped.called
    assert capsys.readouterr().out.encode() == sacrebleu_run(*arguments).stdout


def test_approximate_randomization_on_rows_kept_in_a_file(
    de_en: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Approximate randomization reads each system's rows in order, so that a long corpus's
    # are kept in a file (past IN_MEMORY bytes; here from the first row): sacreBLEU's output.
    from bleuprint.cli import main  # noqa: PLC0415 - the command in this process
    from bleuprint.cli import sacrebleu as command  # noqa: PLC0415

    monkeypatch.setattr(command, "IN_MEMORY", 0)
    arguments = [str(de_en / "ref.A.txt"), *_expand(OPTION_SETS["paired-ar-json"], de_en)]
    with mock.patch.object(RowFile, "append", autospec=True, side_effect=RowFile.append) as kept:
        assert main(["sacrebleu", *arguments, "-q"]) == 0
    assert kept.called
    assert capsys.readouterr().out.encode() == sacrebleu_run(*arguments).stdout
