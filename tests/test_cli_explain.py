"""``bleuprint explain``: the text and JSON of explanations, checked by hand."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_helpers import CANONICAL, fails, run


def test_cli_text_is_plain_when_piped(tmp_path: Path) -> None:
    (tmp_path / "ref.txt").write_text("the cat sat on the mat\nit rained\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("the the the cat\nit rained\n", encoding="utf-8")
    completed = run(
        "explain",
        *CANONICAL,
        "-r",
        "ref.txt",
        "-i",
        "hyp.txt",
        "--segment",
        "1",
        "--max-n",
        "2",
        cwd=tmp_path,
    )
    assert completed.returncode == 0 and completed.stderr == ""
    assert completed.stdout == (
        "segment 1\n"
        "  hypothesis   the the the cat\n"
        "  reference 1  the cat sat on the mat\n"
        "  BLEU = 30.3 75.0/33.3 (BP = 0.607 ratio = 0.667 hyp_len = 4 ref_len = 6)\n"
        "  1-grams: 3/4 matched\n"
        "    matched    the ×2 · cat\n"  # noqa: RUF001
        "    clipped    the\n"
        "    missed     sat · on · mat\n"
        "  2-grams: 1/3 matched\n"
        "    matched    the cat\n"
        "    unmatched  the the ×2\n"  # noqa: RUF001
        "    missed     cat sat · sat on · on the · the mat\n"
        "  brevity: hypothesis length 4 (tokens); reference lengths 6 give 6 (closest[shorter]); "
        "the hypothesis is shorter than that, so exp gives BP = 0.6065\n"
    )
    colored = run(
        "explain",
        *CANONICAL,
        "-r",
        "ref.txt",
        "-i",
        "hyp.txt",
        "--segment",
        "1",
        "--color",
        "always",
        cwd=tmp_path,
    ).stdout
    assert "\x1b[32mmatched  \x1b[0m" in colored and "\x1b[1msegment 1\x1b[0m" in colored


@pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal")
@pytest.mark.parametrize(("no_color", "colored"), [(False, True), (True, False)])
def test_cli_colours_a_terminal_unless_no_color(
    tmp_path: Path, no_color: bool, colored: bool
) -> None:
    (tmp_path / "ref.txt").write_text("a b\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("a c\n", encoding="utf-8")
    environment = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    if no_color:
        environment["NO_COLOR"] = "1"
    leader, follower = pty.openpty()
    command = [sys.executable, "-m", "bleuprint.cli", "explain", "-r", "ref.txt", "-i", "hyp.txt"]
    status = subprocess.run(
        command, cwd=tmp_path, stdout=follower, env=environment, check=False
    ).returncode
    os.close(follower)
    shown = os.read(leader, 65536)
    os.close(leader)
    assert status == 0
    assert (b"\x1b[32m" in shown) is colored


def test_cli_text_prints_the_score_as_its_definition_prints_it(tmp_path: Path) -> None:
    # One scale rule (issue 26): NLTK's float as sentence_bleu returns it, sacreBLEU's score
    # as its command prints it (one decimal), -w's decimals on sacreBLEU's scale.
    from nltk.translate.bleu_score import sentence_bleu  # noqa: PLC0415

    from tests.cli_helpers import sacrebleu_cli  # noqa: PLC0415

    reference, hypothesis = "the cat sat on a mat", "the cat sat on the mat"
    (tmp_path / "ref.txt").write_text(reference + "\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text(hypothesis + "\n", encoding="utf-8")
    details = "83.3/60.0/50.0/33.3 (BP = 1.000 ratio = 1.000 hyp_len = 6 ref_len = 6)"
    nltk = sentence_bleu([reference.split()], hypothesis.split())
    sacrebleu = sacrebleu_cli("ref.txt", "-i", "hyp.txt", "-b", cwd=tmp_path).strip()
    assert sacrebleu == "53.7"
    for options, score in (
        (["--preset", "nltk"], repr(nltk)),
        ([], sacrebleu),
        (["-w", "3"], f"{100 * (5 / 6 * 3 / 5 * 2 / 4 * 1 / 3) ** 0.25:.3f}"),  # by hand
    ):
        completed = run(
            "explain", "-r", "ref.txt", "-i", "hyp.txt", "--segment", "1", *options, cwd=tmp_path
        )
        assert completed.returncode == 0, completed.stderr
        assert completed.stdout.splitlines()[3] == f"  BLEU = {score} {details}", options


def test_cli_json_and_worst(tmp_path: Path) -> None:
    (tmp_path / "ref.txt").write_text("a b\na b\nc e\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("a b\nx y\nc d\n", encoding="utf-8")
    completed = run(
        "explain",
        *CANONICAL,
        "-r",
        "ref.txt",
        "-i",
        "hyp.txt",
        "--max-n",
        "1",
        "--worst",
        "2",
        "-f",
        "json",
        cwd=tmp_path,
    )
    items = json.loads(completed.stdout)["systems"][0]["segments"]
    assert [item["segment"] for item in items] == [2, 3]
    assert items[0]["loss"] == pytest.approx(25.0)
    assert items[1]["orders"][0]["matched"] == [{"ngram": ["c"], "count": 1}]
    assert items[1]["orders"][0]["unmatched"] == [{"ngram": ["d"], "count": 1}]
    assert items[1]["brevity"] == {
        "hypothesis_length": 2,
        "reference_lengths": [2],
        "reference_length": 2,
        "reference_rule": "closest[shorter]",
        "penalty_rule": "exp",
        "bp": 1.0,
    }


def test_cli_errors(tmp_path: Path) -> None:
    (tmp_path / "ref.txt").write_text("a b\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("a b\n", encoding="utf-8")
    fails(
        run(
            "explain", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "--segment", "2", cwd=tmp_path
        ),
        "--segment 2: hyp.txt has 1 line, numbered from 1",
    )
    fails(
        run("explain", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "hyp.txt", cwd=tmp_path),
        "explain takes one system (one -i file or standard input)",
    )
