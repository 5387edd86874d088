"""The preset and its overrides: the one place where options become a configuration."""

from __future__ import annotations

import argparse
from typing import Any

import attrs

from bleuprint import presets
from bleuprint._engine import FIELD_OF_FAMILY, BLEUScore
from bleuprint._signature import parse_part
from bleuprint.cli.options import at_least
from bleuprint.cli.presets import add_preset_option
from bleuprint.compat import sacrebleu
from bleuprint.exceptions import ConfigurationError

DEFAULT_PRESET = "sacrebleu"

# Option -> the keywords of a preset's constructor that mean it, in order of preference
# (sacreBLEU's names first where bleuprint's presets call the same thing otherwise).
_PRESET_KEYWORDS = {
    "tokenize": ("tokenize",),
    "lowercase": ("lowercase",),
    "smooth_method": ("smooth_method",),
    "smooth_value": ("smooth_value",),
    "max_n": ("max_ngram_order", "max_n"),
    "effective_order": ("effective_order",),
    "target_language": ("trg_lang",),
    "spm_model": ("spm_model",),
}
# Options that name a part: with a preset whose constructor lacks the keyword, they replace
# the part of that family by the registered part of that name.
_PART_OPTIONS = {"tokenize": "tok", "smooth_method": "smooth"}
_FLAGS = {
    "tokenize": "--tokenize",
    "lowercase": "--lowercase",
    "smooth_method": "--smooth-method",
    "smooth_value": "--smooth-value",
    "max_n": "--max-n",
    "effective_order": "--effective-order",
    "target_language": "--language-pair",
    "spm_model": "--spm-model",
}


def _target_language(pair: str) -> str:
    source, dash, target = pair.partition("-")
    if not (source and dash and target) or "-" in target:
        raise argparse.ArgumentTypeError(f"expected SRC-TRG, such as en-de, got {pair!r}")
    return target


def add_configuration_options(parser: argparse.ArgumentParser) -> None:
    """The preset and the overrides of its parameters."""
    group = parser.add_argument_group("configuration")
    add_preset_option(group, default=DEFAULT_PRESET)
    group.add_argument(
        "-tok",
        "--tokenize",
        metavar="NAME",
        help="the tokenizer, as sacreBLEU's -tok: "
        f"{', '.join([*sacrebleu.TOKENIZERS, *sacrebleu.SENTENCEPIECE_TOKENIZERS])}; with a "
        "preset that has no such option (canonical, nltk, ...), a bleuprint tokenizer part "
        "(whitespace, letters, ...: the tok field of bleuprint presets)",
    )
    group.add_argument(
        "--spm-model",
        metavar="FILE",
        help="the model of a SentencePiece tokenizer (-tok flores200, flores101, spBLEU-1K, "
        "spm); default: sacreBLEU's file in $SACREBLEU/models, else ~/.sacrebleu/models",
    )
    group.add_argument(
        "-lc", "--lowercase", action="store_const", const=True, help="compare without case"
    )
    group.add_argument(
        "-s",
        "--smooth-method",
        "--smooth",
        dest="smooth_method",
        metavar="METHOD",
        help="smoothing, as sacreBLEU's -s: exp, floor, add-k, none (or a bleuprint part)",
    )
    group.add_argument(
        "-sv",
        "--smooth-value",
        type=float,
        metavar="VALUE",
        help="the smoothing method's parameter, as sacreBLEU's -sv",
    )
    group.add_argument(
        "-m",
        "--metrics",
        nargs="+",
        choices=["bleu"],
        default=["bleu"],
        help="accepted for sacreBLEU's spelling: bleuprint computes BLEU only",
    )
    group.add_argument("--max-n", type=at_least(1), metavar="N", help="the highest n-gram order")
    group.add_argument(
        "--effective-order",
        action="store_const",
        const=True,
        help="leave out the orders with no n-grams (sentence-level BLEU)",
    )
    group.add_argument(
        "-l",
        "--language-pair",
        dest="target_language",
        type=_target_language,
        metavar="SRC-TRG",
        help="the language pair; as in sacreBLEU, a zh, ja or ko target picks its tokenizer "
        "unless --tokenize is given",
    )
    group.add_argument(
        "--part",
        action="append",
        default=[],
        metavar="FAMILY=SIGNATURE",
        help="replace one part by its signature, e.g. --part ref=shortest (repeatable)",
    )


def engine_from_options(
    arguments: argparse.Namespace, *, sentence_level: bool = False
) -> BLEUScore:
    """The one place where command-line options become a configuration.

    Each option given goes to the preset's constructor under the keyword that means it; an
    option naming a part (``--tokenize``, ``--smooth``) replaces that part where the preset
    takes no such keyword; ``--part`` replaces any part last. At sentence level, a preset that
    has an effective order uses it unless told otherwise, as sacreBLEU's ``--sentence-level``.
    """
    preset = presets.get(arguments.preset)
    keywords: dict[str, Any] = {}
    parts: dict[str, Any] = {}
    if (
        sentence_level
        and arguments.effective_order is None
        and _takes(preset, {"effective_order": True})
    ):
        keywords["effective_order"] = True
    for option, candidates in _PRESET_KEYWORDS.items():
        value = getattr(arguments, option)
        if value is None:
            continue
        keyword = next((name for name in candidates if _takes(preset, {name: value})), None)
        if keyword is not None:
            keywords[keyword] = value
            # Built with the keywords taken so far, so that combinations are checked.
            try:
                preset.build(**keywords)
            except ConfigurationError as error:
                raise ConfigurationError(f"{_FLAGS[option]} {value}: {error}") from None
        elif option in _PART_OPTIONS:
            family = _PART_OPTIONS[option]
            parts[FIELD_OF_FAMILY[family]] = parse_part(family, value)
        else:
            raise ConfigurationError(f"the {preset.name} preset has no {_FLAGS[option]} option")
    for replacement in arguments.part:
        family, equals, signature = replacement.partition("=")
        if not equals or family not in FIELD_OF_FAMILY:
            raise ConfigurationError(
                f"--part {replacement!r}: expected FAMILY=SIGNATURE with FAMILY one of "
                f"{', '.join(FIELD_OF_FAMILY)}"
            )
        parts[FIELD_OF_FAMILY[family]] = parse_part(family, signature)
    return attrs.evolve(preset.build(**keywords), **parts)


def _takes(preset: presets.Preset, keywords: dict[str, Any]) -> bool:
    """Whether the preset's definition takes these keywords."""
    return keywords.keys() <= set(preset.options)
