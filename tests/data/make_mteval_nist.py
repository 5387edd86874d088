"""Record what ``mteval-v13a.pl`` and ``mteval-v14.pl`` print as their NIST score, for
tests/test_mteval_nist.py.

The scripts are not part of bleuprint (nor of its tests): their outputs are recorded once,
here, into ``mteval_nist.json``. How they were made, on 2026-12-05:

- the scripts: mosesdecoder's ``scripts/generic/mteval-v13a.pl`` (commit 14d2a67), copied
  with its printf formats of scores widened to ``%.17g`` (and its comments, its XML reader
  and its BLEU report left out: nothing of them reaches a NIST number); and
  ``scripts/generic/mteval-v14.pl`` (commit f07e60a), the same copy with what v14 changes
  (``use Sort::Naturally`` and ``nsort`` for the order of segment ids, its international
  tokenization's join of hyphenated lines commented out, as v14 has it; everything of the NIST
  score is the same text in both); run by perl 5.36.0 with XML::Twig and Sort::Naturally
  installed;
- each case run as ``perl SCRIPT -n -s src.sgm -r ref.sgm -t tst.sgm [-c]
  [--international-tokenization] -d 2``, the SGML
  written as the circulation vectors' were (``../shared/vectors/README.md``): one document
  ``d1``, ``<seg id=N>`` with the text as it is, references as ``ref0``, ``ref1``, the source
  the first reference;
- recorded: the system score (``NIST score = ...``), the nine cumulative and individual NIST
  values, and each segment's score (``-d 2``), or the script's error where it dies.

Cases name their text: lines of the shared WMT22 data by file and line range (the text itself
is not copied here), or hand-made segments inline. Run as ``python
tests/data/make_mteval_nist.py PATH/TO/mteval-v13a-wide.pl PATH/TO/mteval-v14-wide.pl``
(with ``$BLEUPRINT_SHARED`` pointing at ../shared).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SHARED = Path(os.environ.get("BLEUPRINT_SHARED", HERE.parents[2] / "shared"))

# (name, language pair, system file, reference files, first line, last line (1-based), -c),
# each run by mteval-v13a.pl
WMT22_CASES = [
    ("de-en Online-B, 1 reference", "de-en", "sys.Online-B.txt", ["ref.A.txt"], 1, 300, False),
    ("de-en Online-B, 1 reference, -c", "de-en", "sys.Online-B.txt", ["ref.A.txt"], 1, 300, True),
    ("de-en LT22, 2 references", "de-en", "sys.LT22.txt", ["ref.A.txt", "ref.B.txt"],
     1, 300, False),
    ("en-de Online-W, 2 references, -c", "en-de", "sys.Online-W.txt", ["ref.A.txt", "ref.B.txt"],
     1, 300, True),
    ("zh-en Online-W, empty line", "zh-en", "sys.Online-W.txt", ["ref.A.txt"], 1, 120, False),
    ("cs-en SHOPLINE-PL, 2 references", "cs-en", "sys.SHOPLINE-PL.txt", ["ref.B.txt", "ref.C.txt"],
     1, 200, False),
]  # fmt: skip

# (name, hypotheses, references per reference set, -c), each run by both scripts
HAND_MADE = [
    ("one segment", ["the cat sat on the mat"], [["the cat is on the mat"]], False),
    ("a longer hypothesis", ["a b c d e f g h"], [["a b c"]], False),
    ("a short hypothesis", ["a b"], [["a b c d e f"]], False),
    ("two references, repeated n-grams", ["the the the cat the cat"],
     [["the cat the cat on"], ["a cat and the cat"]], False),
    ("the word 0 as a prefix", ["0 apples and 0 pears", "0 0 0"],
     [["0 apples or 0 pears", "0 0 1"]], False),
    ("case kept or lowered", ["The Cat SAT on THE mat", "Über Äpfel"],
     [["the cat sat on the Mat", "über äpfel"]], False),
    ("case kept", ["The Cat SAT on THE mat", "Über Äpfel"],
     [["the cat sat on the Mat", "über äpfel"]], True),
    ("punctuation and escapes", ["It costs 3.5 dollars, &amp; more-or-less 1-2."],
     [["It costs 3.50 dollars , and more or less 1 - 2 ."]], False),
    ("an empty hypothesis", ["", "a b c"], [["a b", "a b c"]], False),
    ("no match", ["x y z"], [["a b c"]], False),
    ("an empty reference segment", ["a b", "c d"], [["a b", ""]], False),
    ("one of two references empty", ["a b", "c d"], [["a b", ""], ["a b", "c d"]], False),
    # the examples of the docs (compat.mteval.nist and docs/definitions/nist.md)
    ("the docstring's example",
     ["It is a guide to action which ensures that the military always obeys"],
     [["It is a guide to action that ensures that the military will heed"],
      ["It is the guiding principle which guarantees the military forces"]], False),
    ("the page's segments", ["the cat sat", "a dog"], [["the cat sat", "the dog"]], False),
]  # fmt: skip


# mteval-v14.pl's cases: (name, language pair, system file, reference files, first line,
# last line, -c, --international-tokenization)
WMT22_V14_CASES = [
    ("v14 de-en Online-B, 1 reference", "de-en", "sys.Online-B.txt", ["ref.A.txt"],
     1, 300, False, False),
    ("v14 en-de Online-W, 2 references, -c", "en-de", "sys.Online-W.txt",
     ["ref.A.txt", "ref.B.txt"], 1, 300, True, False),
    ("v14 de-en LT22, 2 references, international", "de-en", "sys.LT22.txt",
     ["ref.A.txt", "ref.B.txt"], 1, 300, False, True),
    ("v14 en-de Online-B, 1 reference, international", "en-de", "sys.Online-B.txt", ["ref.A.txt"],
     1, 300, False, True),
    ("v14 zh-en Online-W, international, -c", "zh-en", "sys.Online-W.txt", ["ref.A.txt"],
     1, 120, True, True),
    ("v14 cs-en SHOPLINE-PL, 2 references, international, -c", "cs-en", "sys.SHOPLINE-PL.txt",
     ["ref.B.txt", "ref.C.txt"], 1, 200, True, True),
]  # fmt: skip

# mteval-v14.pl --international-tokenization's hand-made cases (name, hypotheses, references
# per reference set, -c)
INTERNATIONAL = [
    ("letters beyond A to Z lowercased", ["Über Äpfel, ÉTÉ", "ΑΒΓ δ"],
     [["über äpfel , été", "αβγ δ"]], False),
    ("letters beyond A to Z kept", ["Über Äpfel, ÉTÉ", "ΑΒΓ δ"],
     [["über äpfel , été", "αβγ δ"]], True),
    ("escapes, symbols and numbers", ["It&apos;s 3.5 $, &amp; 1-2 &lt;b&gt; €5"],
     [["It's 3.5 $ , & 1 - 2 <b> € 5"]], False),
    ("the word 0 as a prefix", ["0 apples and 0 pears", "0 0 0"],
     [["0 apples or 0 pears", "0 0 1"]], False),
    ("two references, a short hypothesis", ["a b", "c"],
     [["a b c d", "c d e"], ["a b c", "c d"]], False),
]  # fmt: skip


def _sgml(kind: str, sets: list[tuple[str, list[str]]]) -> str:
    """An SGML file of ``kind`` (srcset, refset, tstset) holding each (sysid, segments)."""
    lines = []
    for sysid, segments in sets:
        lines.append(f'<{kind} setid="s" srclang="any" trglang="any" sysid="{sysid}">')
        lines.append(f'<doc sysid="{sysid}" docid="d1">')
        lines += [f"<seg id={n}>{text}</seg>" for n, text in enumerate(segments, 1)]
        lines += ["</doc>", f"</{kind}>"]
    return "\n".join(lines) + "\n"


_NUMBER = r"([-+0-9.eE]+|nan|inf)"


def run(
    script: str,
    hypotheses: list[str],
    references: list[list[str]],
    c: bool,
    international: bool = False,
) -> Any:
    """The script's NIST numbers for these segments (or its error)."""
    with tempfile.TemporaryDirectory() as folder:
        files = {
            "src.sgm": _sgml("srcset", [("src", references[0])]),
            "ref.sgm": _sgml("refset", [(f"ref{k}", r) for k, r in enumerate(references)]),
            "tst.sgm": _sgml("tstset", [("sys", hypotheses)]),
        }
        for name, text in files.items():
            Path(folder, name).write_text(text, encoding="utf-8")
        command = ["perl", script, "-n", "-s", "src.sgm", "-r", "ref.sgm", "-t", "tst.sgm"]
        command += ["-d", "2", *(["-c"] if c else [])]
        command += ["--international-tokenization"] if international else []
        done = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)
    if done.returncode != 0 or "NIST score = " not in done.stdout:
        error = re.sub(r" at \S+ line \d+\.$", "", done.stderr.strip().splitlines()[-1])
        return {"raises": error, "exit_status": done.returncode}
    score = re.search(rf"NIST score = {_NUMBER} ", done.stdout)
    individual, cumulative = re.findall(r' NIST:((?: \S+){9}) "sys"', done.stdout)
    segments = re.findall(rf"5-grams = {_NUMBER} for system \"sys\" on segment (\d+) ", done.stdout)
    assert score and [int(n) for _, n in segments] == list(range(1, len(hypotheses) + 1))
    return {
        "score": float(score[1]),
        "individual": [float(value) for value in individual.split()],
        "cumulative": [float(value) for value in cumulative.split()],
        "scores": [float(value) for value, _ in segments],
    }


def _options(script: str, c: bool, international: bool) -> dict[str, Any]:
    return {"script": script, "c": c, "international_tokenization": international}


def main() -> None:
    scripts = {"v13a": sys.argv[1], "v14": sys.argv[2]}
    wmt22 = [(*case, "v13a", False) for case in WMT22_CASES]
    wmt22 += [(*case[:7], "v14", case[7]) for case in WMT22_V14_CASES]
    cases = []
    for name, pair, system, reference_files, first, last, c, script, international in wmt22:
        folder = SHARED / "data" / "wmt22" / pair
        lines = [
            (folder / file).read_text(encoding="utf-8").split("\n")[first - 1 : last]
            for file in [system, *reference_files]
        ]
        cases.append(
            {
                "name": name,
                "wmt22": {"pair": pair, "system": system, "references": reference_files},
                "lines": [first, last],
                **_options(script, c, international),
                "expected": run(scripts[script], lines[0], lines[1:], c, international),
            }
        )
    hand_made = [(*case, "v13a", False) for case in HAND_MADE]
    hand_made += [(f"v14 {case[0]}", *case[1:], "v14", False) for case in HAND_MADE]
    hand_made += [
        (f"v14 international, {case[0]}", *case[1:], "v14", True) for case in INTERNATIONAL
    ]
    for name, hypotheses, references, c, script, international in hand_made:
        cases.append(
            {
                "name": name,
                "hypotheses": hypotheses,
                "references": references,
                **_options(script, c, international),
                "expected": run(scripts[script], hypotheses, references, c, international),
            }
        )
    meta = {
        "v13a": "mteval-v13a.pl (mosesdecoder 14d2a67), printf widened to %.17g",
        "v14": "mteval-v14.pl (mosesdecoder f07e60a), printf widened to %.17g",
    }
    document = {"meta": meta, "cases": cases}
    (HERE / "mteval_nist.json").write_text(
        json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
