"""The named constructors as a type checker sees them: bleuprint/_constructors.py, generated
from the presets registry, declares each with its recipe's options and the engine's parts."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

from bleuprint import BLEUScore, _constructors, _make_constructors, presets

COMMAND = "python -m bleuprint._make_constructors"


def test_the_declared_constructors_are_the_registrys() -> None:
    written = Path(_constructors.__file__).read_text(encoding="utf-8")
    assert written == _make_constructors.source(), (
        "bleuprint/_constructors.py, the named constructors as a type checker sees them, is out "
        f"of date with the presets: run `{COMMAND}` and commit the file"
    )


def test_each_declaration_takes_its_recipes_options_then_the_engines_parts() -> None:
    # Read back from the generated text, against the recipe itself (not the generator).
    namespace: dict[str, object] = {}
    text = Path(_constructors.__file__).read_text(encoding="utf-8")
    exec(compile(text.replace("if TYPE_CHECKING:", "if True:"), "<stub>", "exec"), namespace)
    declared = namespace["TypedConstructors"]
    fields = [field.name for field in attrs.fields(BLEUScore)]
    for name, preset in presets.PRESETS.items():
        method = getattr(declared, preset.constructor)
        taken = list(inspect.signature(method).parameters)[1:]  # after cls
        options = list(inspect.signature(preset.recipe).parameters)
        assert taken == options + [field for field in fields if field not in options], name


def test_sacrebleus_declaration_is_keyword_only_with_nltks_weights_its_own() -> None:
    text = Path(_constructors.__file__).read_text(encoding="utf-8")
    sacrebleu = text[text.index("def sacrebleu(") : text.index("def sacrebleu_sentence(")]
    assert sacrebleu.split("\n")[2].strip() == "*,"  # its recipe's options are keywords
    assert "tokenize: str | None = ...," in sacrebleu
    nltk = text[text.index("def nltk(") : text.index("def sacrebleu(")]
    assert "weights: Sequence[float] = ...," in nltk and "weights: Weights" not in nltk


SNIPPET = """\
from bleuprint import BLEUScore, smoothing

right = BLEUScore.sacrebleu(tokenize="13a", smoothing=smoothing.Exp())
also_right: BLEUScore = BLEUScore.nltk([0.5, 0.5], method=1)
misspelled = BLEUScore.sacreblue()
misspelled_option = BLEUScore.sacrebleu(tokenise="13a")
wrong_type = BLEUScore.canonical(max_n="4")
not_on_an_engine = BLEUScore().nltk
"""


@pytest.mark.processes
def test_a_type_checker_refuses_a_misspelled_constructor_or_option(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="mypy (the dev extra) checks the declarations")
    (tmp_path / "snippet.py").write_text(SNIPPET, encoding="utf-8")
    options = ["--strict", "--no-error-summary", "--cache-dir", str(tmp_path / "cache")]
    run = subprocess.run(
        [sys.executable, "-m", "mypy", *options, "snippet.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    errors = [line for line in run.stdout.splitlines() if ": error: " in line]
    lines = [int(line.split(":")[1]) for line in errors]
    assert lines == [5, 6, 7, 8], run.stdout + run.stderr
    assert '"type[BLEUScore]" has no attribute "sacreblue"' in errors[0]
    assert 'Unexpected keyword argument "tokenise"' in errors[1]
    assert 'incompatible type "str"; expected "int"' in errors[2]
    assert '"BLEUScore" has no attribute "nltk"' in errors[3]
