"""``bleuprint presets``: every preset with where it comes from and a signature that rebuilds
it; an installed distribution's presets among them, its broken ones a warning line each."""

from __future__ import annotations

import re
from pathlib import Path

from bleuprint import BLEUScore, presets
from tests.cli_helpers import run
from tests.test_presets import GOOD, install_toy


def _listed(stdout: str) -> list[list[str]]:
    header, rule, *rows = stdout.splitlines()
    assert header.split() == ["preset", "from", "signature"] and set(rule) <= {"-", " "}
    return [re.split(r"  +", row.strip()) for row in rows]


def test_presets_lists_where_each_comes_from_and_signatures_that_rebuild_it() -> None:
    completed = run("presets")
    assert completed.returncode == 0 and completed.stderr == ""
    listed = {name: (origin, signature) for name, origin, signature in _listed(completed.stdout)}
    assert list(listed) == list(presets.PRESETS)
    for name, (origin, signature) in listed.items():
        assert origin == presets.origin(name)
        assert BLEUScore.from_signature(signature) == presets.get(name).build()
    assert listed["mteval-v14"][0] == "bleuprint.compat.mteval"
    # The russian definition as its statement gives it: letter words, an uncapped ratio.
    assert "tok:letters" in listed["russian"][1] and "bp:ratio[false]" in listed["russian"][1]


def test_an_installed_distributions_presets_are_listed_and_score(tmp_path: Path) -> None:
    entry_points = GOOD + "broken = toy_bleu_broken\nunbuilt = toy_bleu_unbuilt\n"
    environment = install_toy(tmp_path, entry_points)
    unbuilt = "from bleuprint.presets import Preset\nPRESETS = (Preset('unbuilt', 'no', dict),)\n"
    (tmp_path / "toy_bleu_unbuilt.py").write_text(unbuilt.replace("dict", "lambda: {'ngrams': 4}"))
    completed = run("presets", env=environment)
    assert completed.returncode == 0
    rows = _listed(completed.stdout)
    assert [row[:2] for row in rows[-3:]] == [
        ["toy", "toy_bleu_presets (toy-bleu 1.0)"],
        ["toy-bigram", "toy_bleu_presets (toy-bleu 1.0)"],
        ["unbuilt", "toy_bleu_unbuilt (toy-bleu 1.0)"],
    ]
    assert BLEUScore.from_signature(rows[-3][2]) == BLEUScore.canonical(max_n=3)
    assert rows[-1][2] == "-"
    broken, unbuildable = completed.stderr.splitlines()
    assert broken == (
        "bleuprint: warning: toy_bleu_broken (toy-bleu 1.0) is left out: importing it failed: "
        "RuntimeError: a bug"
    )
    assert unbuildable.startswith("bleuprint: warning: preset unbuilt cannot be built: ")
    completed = run("pair", "--preset", "toy", stdin=b"a b c\na b c\n", env=environment)
    assert (completed.returncode, completed.stdout, completed.stderr) == (0, "1.00\n", "")


def test_an_unknown_preset_is_a_usage_error_that_lists_the_known_ones() -> None:
    completed = run("pair", "--preset", "nope", stdin=b"a\na\n")
    assert completed.returncode == 2 and completed.stdout == ""
    last = completed.stderr.splitlines()[-1]
    assert last.startswith("bleuprint pair: error: argument --preset: unknown preset 'nope'; ")
    assert last.endswith(", ".join(presets.PRESETS))
