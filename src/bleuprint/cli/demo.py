"""``bleuprint demo``: the bundled example corpus under every preset."""

from __future__ import annotations

import argparse
import warnings
from importlib import resources

from bleuprint import presets
from bleuprint._io import split_segments
from bleuprint.cli.options import SubCommands
from bleuprint.cli.table import format_table
from bleuprint.compat.nltk import ZeroOverlapWarning


def add_command(commands: SubCommands) -> None:
    """Add the command to the command line's sub-parsers."""
    parser = commands.add_parser("demo", help="score the bundled example corpus under every preset")
    parser.set_defaults(command=run)


def run(arguments: argparse.Namespace) -> str:
    text = resources.files("bleuprint").joinpath("data/demo.tsv").read_bytes()
    lines = split_segments(text, "demo.tsv")
    rows = [line.split("\t") for line in lines if not line.startswith("#")]
    hypotheses = [row[0] for row in rows]
    references = [row[1:] for row in rows]
    table = [("preset", "corpus", "mean sentence", "definition")]
    on_ids = [preset.name for preset in presets.PRESETS.values() if preset.takes == "token ids"]
    for preset in presets.PRESETS.values():
        if preset.name in on_ids:  # the corpus is words, which such a preset refuses
            continue
        engine = preset.build()
        segments = engine.count_segments(hypotheses, references)
        with warnings.catch_warnings():  # NLTK's, of its zero precisions: not for a table
            warnings.simplefilter("ignore", ZeroOverlapWarning)
            sentence_scores = engine.score_segments(segments).scores.tolist()
        table.append(
            (
                preset.name,
                preset.format_score(engine.score(engine.total(segments)).score),
                # Added left to right: numpy's pairwise sum can differ in the last digit,
                # which the presets that print full precision would show.
                preset.format_score(sum(sentence_scores) / len(sentence_scores)),
                preset.summary,
            )
        )
    header = (
        f"{len(rows)} segments of the bundled example corpus, "
        "each score as its definition prints it\n\n"
    )
    left_out = f"\nnot shown (they take token ids only): {', '.join(on_ids)}\n" if on_ids else ""
    return header + format_table(table) + left_out
