"""What a mistyped command line is told besides argparse's error: the closest spellings of an
unknown option, and, for a sacreBLEU habit, the ``-r`` a positional reference needs.

>>> closest("--tokenise", ["--tokenize", "--lowercase", "-tok"])
['--tokenize']
>>> closest("--sent", ["--sentence-level", "--seed", "--score-only"])
['--sentence-level']
>>> unknown_options(["--paired-bootstrap"], ["--paired-bs", "--paired-ar", "--seed"])
'unrecognized arguments: --paired-bootstrap; did you mean --paired-bs or --paired-ar?'
"""

from __future__ import annotations

import difflib
import shlex
from collections.abc import Iterable, Sequence

_CLOSEST = 3  # spellings offered at most
_CUTOFF = 0.6  # difflib's default similarity
_MARGIN = 0.1  # spellings this much less similar than the closest are not offered


def closest(option: str, known: Iterable[str]) -> list[str]:
    """The known options ``option`` begins (an abbreviation, which bleuprint does not take),
    else the most similar spellings (:func:`difflib.get_close_matches`, those nearly as
    similar as the closest); at most three."""
    name = option.partition("=")[0]
    candidates = sorted(set(known))
    beginning = [candidate for candidate in candidates if candidate.startswith(name)]
    if beginning:
        return beginning[:_CLOSEST]
    similar = difflib.get_close_matches(name, candidates, n=_CLOSEST, cutoff=_CUTOFF)
    if not similar:
        return []
    # Only those about as close as the closest: --lowercse is --lowercase, not --force.
    best = _similarity(name, similar[0])
    return [spelling for spelling in similar if _similarity(name, spelling) >= best - _MARGIN]


def _similarity(first: str, second: str) -> float:
    return difflib.SequenceMatcher(None, first, second).ratio()


def unknown_options(extras: Sequence[str], known: Iterable[str]) -> str:
    """argparse's "unrecognized arguments" error, with the closest spellings of each unknown
    option (``--tokenise``: did you mean ``--tokenize``?)."""
    options = list(known)
    unknown = [extra for extra in extras if extra.startswith("-") and not _is_number(extra)]
    hints = []
    for extra in unknown:
        spellings = closest(extra, options)
        if spellings:
            named = f"{extra}: " if len(unknown) > 1 else ""
            hints.append(f"{named}did you mean {_alternatives(spellings)}?")
    return "; ".join([f"unrecognized arguments: {' '.join(extras)}", *hints])


def positional_references(command: str, given: Sequence[str]) -> str:
    """For ``bleuprint score ref.txt -i sys.txt`` (sacreBLEU's order): the files given before
    any option are meant as references, which bleuprint's commands take with ``-r``. Empty
    when the command line does not begin with a file."""
    leading = []
    for argument in given:
        if argument.startswith("-"):
            break
        leading.append(argument)
    if not leading:
        return ""
    meant = f"`-r {shlex.join(leading)}`"
    if {"-r", "--references"} & set(given):
        return f"; did you mean {meant}? {command} takes every reference file after -r"
    return f"; did you mean {meant}, or `bleuprint sacrebleu {shlex.join(given)}`?"


def _alternatives(spellings: Sequence[str]) -> str:
    return (
        spellings[0] if len(spellings) == 1 else f"{', '.join(spellings[:-1])} or {spellings[-1]}"
    )


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
