"""The presets registry and what every preset shares."""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from hypothesis import strategies as st

from bleuprint import (
    BLEUScore,
    ConfigurationError,
    _engine,
    compat,
    definitions,
    presets,
    tokenizers,
)
from bleuprint.exceptions import PresetWarning

WORD = st.sampled_from(["a", "b", "c", "the", "cat"])
SENTENCE = st.lists(WORD, max_size=8)


def test_token_list_presets_split_text_on_whitespace() -> None:
    for bleu in [BLEUScore.nltk(), BLEUScore.fast_bleu(), BLEUScore.distancia()]:
        assert bleu.tokenizer == tokenizers.Whitespace()
    characters = BLEUScore.nltk(tokenizer=tokenizers.Codepoints())
    assert characters.compute("abcd", ["abcd"]) == 1.0


@pytest.mark.parametrize("name", list(presets.PRESETS))
def test_signature_rebuilds_the_preset(name: str) -> None:
    bleu = presets.get(name).build()
    assert BLEUScore.from_signature(str(bleu.signature())) == bleu


def test_the_comparison_page_lists_every_preset_with_its_parts() -> None:
    """The docs' table of parts stays what the presets are (a drift check, not a definition)."""
    page = (Path(__file__).parent.parent / "docs" / "definitions" / "compared.md").read_text()
    section = page.split("## Every part, at the default options")[1].split("\n## ")[0]
    header, _, *rows = [line for line in section.splitlines() if line.startswith("|")]
    families = [cell.strip() for cell in header.strip("|").split("|")][1:]
    listed = set()
    for row in rows:
        name, *parts = [cell.strip().strip("`") for cell in row.strip("|").split("|")]
        listed.add(name)
        assert dict(zip(families, parts)) == dict(presets.get(name).build().signature().parts)
    assert listed == set(presets.PRESETS)


# -- the registry: bleuprint's own definition modules --------------------------------------


def _definition_modules() -> list[str]:
    """Every public module of bleuprint's two definition packages, as Python's own module
    finder lists them (not as the registry does)."""
    return [
        f"{package.__name__}.{found.name}"
        for package in (definitions, compat)
        for found in pkgutil.iter_modules(package.__path__)
        if not found.name.startswith("_")
    ]


@pytest.mark.parametrize("module", _definition_modules())
def test_every_definition_module_is_registered_with_each_of_its_presets(module: str) -> None:
    entries = importlib.import_module(module).PRESETS
    assert entries, f"{module} declares no preset (a shared module's name begins with _)"
    for entry in entries:
        assert presets.PRESETS[entry.name] is entry
        assert presets.origin(entry.name) == module
        assert getattr(BLEUScore, entry.constructor)().to_dict() == entry.build().to_dict()


def test_the_registry_lists_every_modules_presets_definitions_first() -> None:
    modules = _definition_modules()
    declared = [importlib.import_module(module).PRESETS for module in modules]
    expected = [entry.name for entries in declared for entry in entries]
    assert list(presets.PRESETS) == expected
    assert modules[0].startswith("bleuprint.definitions.")
    assert len(presets.PRESETS) == len(expected)


def test_named_constructors_keep_their_signatures_and_overrides() -> None:
    assert BLEUScore.canonical(max_n=2).max_n == 2
    nltk = BLEUScore.nltk((0.5, 0.5), method=6)
    assert nltk == BLEUScore.preset("nltk", weights=(0.5, 0.5), method=6)
    assert nltk.smoothing.signature == "nltk-method6[5]"
    assert list(inspect.signature(BLEUScore.nltk).parameters)[:2] == ["weights", "method"]
    words = BLEUScore.russian(length="words", tokenizer=tokenizers.Whitespace())
    assert words.tokenizer == tokenizers.Whitespace()
    assert "Russian contest" in (BLEUScore.russian.__doc__ or "")
    assert {"canonical", "sacrebleu_sentence", "google_bleu"} <= set(dir(BLEUScore))


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(ConfigurationError, match="unknown preset 'nope'; known presets: canonical"):
        BLEUScore.preset("nope")
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        BLEUScore.nope  # noqa: B018
    with pytest.raises(ConfigurationError, match="the canonical preset does not take nope"):
        BLEUScore.preset("canonical", nope=1)


def test_a_preset_is_named_after_its_module() -> None:
    registry = _engine._Registry()
    assert "moses-multi-bleu-detok" in registry and "moses-multi" not in registry
    assert registry.origin("moses-multi-bleu-detok") == "bleuprint.compat.moses"
    assert "gleu-x" not in registry and "canonical-2" not in registry


# -- installed distributions: the entry-point group ------------------------------------------

TOY_MODULE = """
import functools

from bleuprint import ngrams
from bleuprint.presets import Preset


def parts(max_n: int = 3):
    \"\"\"Canonical BLEU, three orders by default.\"\"\"
    return {"ngrams": ngrams.Contiguous(max_n)}


PRESETS = (
    Preset("toy", "a toy: canonical BLEU-3", parts, decimals=2),
    Preset("toy-bigram", "a toy: canonical BLEU-2", functools.partial(parts, 2)),
)
"""
MISNAMED_MODULE = """
from bleuprint.definitions import canonical
from bleuprint.presets import Preset

PRESETS = (
    Preset("nltk", "not mine to name", canonical.parts),
    "not a preset",
    Preset("misnamed", "the one that is right", canonical.parts),
)
"""


def install_toy(folder: Path, entry_points: str) -> dict[str, str]:
    """A distribution ``toy-bleu`` installed in ``folder`` (its modules and its dist-info, as
    pip would write them): the environment of a Python that finds it."""
    (folder / "toy_bleu_presets.py").write_text(TOY_MODULE, encoding="utf-8")
    (folder / "toy_bleu_misnamed.py").write_text(MISNAMED_MODULE, encoding="utf-8")
    hiding = "from bleuprint.presets import Preset\nPRESETS = (Preset('score', 'hides', dict),)\n"
    (folder / "toy_bleu_score.py").write_text(hiding, encoding="utf-8")
    (folder / "toy_bleu_broken.py").write_text("raise RuntimeError('a bug')\n", encoding="utf-8")
    info = folder / "toy_bleu-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: toy-bleu\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")
    return {**os.environ, "PYTHONPATH": str(folder)}


GOOD = "[bleuprint.presets]\ntoy = toy_bleu_presets\n"


def python(code: str, environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environment, check=False
    )


def test_an_installed_distributions_presets_are_built_by_name(tmp_path: Path) -> None:
    environment = install_toy(tmp_path, GOOD)
    code = (
        "from bleuprint import BLEUScore, presets\n"
        "print(BLEUScore.preset('toy') == BLEUScore.canonical(max_n=3))\n"
        "print(BLEUScore.toy_bigram() == BLEUScore.canonical(max_n=2))\n"
        "print(BLEUScore.preset('toy', max_n=1) == BLEUScore.unigram())\n"
        "print(presets.origin('toy'), presets.get('toy').format_score(0.5))\n"
        "print(list(presets.PRESETS)[-2:])\n"
    )
    completed = python(code, environment)
    assert completed.stderr == ""
    assert completed.stdout.splitlines() == [
        "True",
        "True",
        "True",
        "toy_bleu_presets (toy-bleu 1.0) 0.50",
        "['toy', 'toy-bigram']",
    ]


def test_a_built_in_preset_reads_no_installed_distribution(tmp_path: Path) -> None:
    environment = install_toy(tmp_path, "[bleuprint.presets]\nbroken = toy_bleu_broken\n")
    code = (
        "import sys\nfrom bleuprint import BLEUScore\nBLEUScore.preset('unigram')\n"
        "print('importlib.metadata' in sys.modules, 'toy_bleu_broken' in sys.modules)"
    )
    completed = python(code, environment)
    assert (completed.stdout, completed.stderr) == ("False False\n", "")


def test_broken_installed_presets_are_left_out_with_one_warning_each(tmp_path: Path) -> None:
    entry_points = (
        "[bleuprint.presets]\ntoy = toy_bleu_presets\nbroken = toy_bleu_broken\n"
        "misnamed = toy_bleu_misnamed\nmissing = toy_bleu_nowhere\nBad_Name = toy_bleu_presets\n"
        "attribute = toy_bleu_presets:PRESETS\nscore = toy_bleu_score\n"
    )
    environment = install_toy(tmp_path, entry_points)
    code = (
        "import warnings\nwarnings.simplefilter('always')\n"
        "from bleuprint import BLEUScore, presets\n"
        "names = list(presets.PRESETS)\n"
        "print(names[-3:], BLEUScore.preset('misnamed') == BLEUScore.canonical())\n"
    )
    completed = python(code, environment)
    assert completed.stdout == "['misnamed', 'toy', 'toy-bigram'] True\n"  # by entry name
    warned = [line for line in completed.stderr.splitlines() if "PresetWarning" in line]
    assert len(warned) == 7, completed.stderr
    expected = [
        "entry point Bad_Name = toy_bleu_presets of toy-bleu 1.0 is left out",
        "entry point attribute = toy_bleu_presets:PRESETS of toy-bleu 1.0 is left out",
        "toy_bleu_broken (toy-bleu 1.0) is left out: importing it failed: RuntimeError: a bug",
        "preset 'nltk' is not named after its module: its name must be 'misnamed' or begin "
        "with 'misnamed-', and 'nltk' is bleuprint.compat.nltk's; it is left out",
        "PRESETS holds 'not a preset', which is not a bleuprint.presets.Preset",
        "toy_bleu_score (toy-bleu 1.0): preset 'score' would hide BLEUScore.score",
        "toy_bleu_nowhere (toy-bleu 1.0) is left out: importing it failed: ModuleNotFoundError",
    ]
    for text in expected:
        assert sum(text in line for line in warned) == 1, (text, warned)


def test_an_installed_preset_takes_no_name_of_bleuprints(tmp_path: Path) -> None:
    """In process: a registry that reads this distribution (as ``presets.PRESETS`` does)."""
    install_toy(tmp_path, "[bleuprint.presets]\nmisnamed = toy_bleu_misnamed\n")
    sys.path.insert(0, str(tmp_path))
    try:
        registry = _engine._Registry()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert registry["nltk"] is importlib.import_module("bleuprint.compat.nltk").PRESET
            assert registry["misnamed"].summary == "the one that is right"
            assert registry.origin("misnamed") == "toy_bleu_misnamed (toy-bleu 1.0)"
        assert [warning.category for warning in caught] == [PresetWarning] * 2
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("toy_bleu_misnamed", None)
