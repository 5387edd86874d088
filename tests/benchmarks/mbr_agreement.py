"""How often reference aggregation chooses what exact MBR chooses, on real WMT22 outputs.

For each source sentence of each language pair, the candidate group is the distinct non-empty
outputs of the pair's systems for it (5 or 6 candidates; the sources where fewer than 3
systems differ are left out). Both modes score with sacreBLEU's sentence BLEU
(``BLEUScore.sacrebleu_sentence``, the pair's target tokenizer). A second table does the same
for larger groups: 64 distinct system lines of neighbouring sources (as in ``bench.py``).

Reported: the share of groups where both modes choose the same candidate, and the mean and
largest loss of exact expected utility (BLEU points, 0-100) when taking the aggregated choice.

    BLEUPRINT_SHARED=../shared python tests/benchmarks/mbr_agreement.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

from bleuprint import BLEUScore

TOKENIZE = {"en-zh": "zh", "en-ja": "ja-mecab"}


def read_segments(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def compare(engine: BLEUScore, groups: list[list[str]]) -> tuple[float, float, float]:
    exact = engine.mbr(groups)
    aggregated = engine.mbr(groups, mode="aggregate")
    same = np.mean([a.index == b.index for a, b in zip(exact, aggregated)])
    losses = [
        100 * (e.utilities[e.index] - e.utilities[a.index]) for e, a in zip(exact, aggregated)
    ]
    return float(same), float(np.mean(losses)), float(np.max(losses))


def main() -> None:
    root = Path(os.environ.get("BLEUPRINT_SHARED", Path(__file__).resolve().parents[3] / "shared"))
    data = root / "data" / "wmt22"
    print("| pair | groups | candidates | same choice | mean loss | largest loss |")
    print("| --- | --- | --- | --- | --- | --- |")
    pooled: dict[str, list[str]] = {}
    for folder in sorted(path for path in data.iterdir() if path.is_dir()):
        pair = folder.name
        engine = BLEUScore.sacrebleu_sentence(tokenize=TOKENIZE.get(pair, "13a"))
        outputs = [read_segments(path) for path in sorted(folder.glob("sys.*.txt"))]
        groups = [
            list(dict.fromkeys(line for line in lines if line.strip())) for lines in zip(*outputs)
        ]
        groups = [group for group in groups if len(group) >= 3]
        pooled[pair] = list(dict.fromkeys(line for group in groups for line in group))
        same, mean_loss, max_loss = compare(engine, groups)
        sizes = sorted({len(group) for group in groups})
        print(
            f"| {pair} | {len(groups)} | {sizes[0]}-{sizes[-1]} | {same:.1%} | "
            f"{mean_loss:.3f} | {max_loss:.2f} |"
        )
    for pair, lines in pooled.items():
        engine = BLEUScore.sacrebleu_sentence(tokenize=TOKENIZE.get(pair, "13a"))
        starts = np.linspace(0, len(lines) - 64, 100).astype(int)
        same, mean_loss, max_loss = compare(engine, [lines[s : s + 64] for s in starts])
        print(f"| {pair} (pooled) | 100 | 64 | {same:.1%} | {mean_loss:.3f} | {max_loss:.2f} |")


if __name__ == "__main__":
    sys.exit(main())
