"""Every loader checks what it loads (issue 30): an accumulator's or statistics' dictionary, a
signature, and unpickled statistics and accumulators refuse, naming the field, what no counting
of this configuration could have made, instead of failing deep inside or scoring it."""

from __future__ import annotations

import copy
import math
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bleuprint import BLEUScore, BLEUStats, ngrams, weights
from bleuprint.exceptions import ConfigurationError, InputError, StatisticsMismatchError


def _state(engine: BLEUScore) -> dict[str, Any]:
    accumulator = engine.accumulator()
    accumulator.update(["a b c d", "a b"], [["a b c d"], ["a c"]])
    return accumulator.to_dict()


@pytest.mark.parametrize("state", [None, 5, "configuration", [("stats", {})]])
def test_an_accumulator_state_that_is_not_a_dictionary_is_named(state: object) -> None:
    engine = BLEUScore.sacrebleu()
    with pytest.raises(InputError, match="an accumulator's state is a dictionary"):
        type(engine.accumulator()).from_dict(engine, state)  # type: ignore[arg-type]


@pytest.mark.parametrize("configuration", [None, 5, ["tok"], {"tok": 5}])
def test_an_accumulator_configuration_that_is_not_part_signatures_is_named(
    configuration: object,
) -> None:
    engine = BLEUScore.sacrebleu()
    state = {**_state(engine), "configuration": configuration}
    with pytest.raises(InputError, match="configuration is a dictionary of part signatures"):
        type(engine.accumulator()).from_dict(engine, state)


def test_statistics_of_another_counting_are_refused_when_loaded() -> None:
    sacrebleu, canonical = BLEUScore.sacrebleu(), BLEUScore.canonical()
    state = {**_state(sacrebleu), "stats": _state(canonical)["stats"]}
    with pytest.raises(StatisticsMismatchError, match="counted by tok:whitespace"):
        type(sacrebleu.accumulator()).from_dict(sacrebleu, state)
    fewer_orders = {**_state(sacrebleu)["stats"], "matches": [1, 0], "totals": [2, 1]}
    with pytest.raises(StatisticsMismatchError, match="with 2 orders"):
        type(sacrebleu.accumulator()).from_dict(sacrebleu, {**state, "stats": fewer_orders})


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("matches", [10**400, 1, 0, 0]),
        ("hypothesis_length", 10**400),
        ("reference_length", 2**63),
        ("reference_length", 1e300),
        ("segments", 2**64),
    ],
)
def test_counts_beyond_what_counting_makes_are_refused_not_overflowed(
    field: str, value: object
) -> None:
    stats = {**_state(BLEUScore.sacrebleu())["stats"], field: value}
    if field == "matches":
        stats["totals"] = stats["matches"]
    with pytest.raises(InputError, match=r"must be finite and below 2\*\*63"):
        BLEUStats.from_dict(stats)


def test_counts_just_below_the_limit_are_kept() -> None:
    limit = 2**63 - 1
    stats = BLEUStats((limit,), (limit,), limit, float(2**62), segments=limit)
    assert stats.matches == (limit,)


@pytest.mark.parametrize("nrefs", ["abc", "9" * 5000, "-1", "1.5", "\u0661"])
def test_a_signature_with_a_malformed_nrefs_is_a_configuration_error(nrefs: str) -> None:
    signature = str(BLEUScore.sacrebleu().corpus_score(["a b"], [["a b"]]).signature)
    assert signature.endswith("|nrefs:1")
    with pytest.raises(ConfigurationError, match="nrefs must be a number of references or var"):
        BLEUScore.from_signature(signature.removesuffix("1") + nrefs)


def _tampered(stats: BLEUStats, **fields: object) -> BLEUStats:
    """``stats`` with fields changed behind their checks (as a pickle written by hand, or by
    code that wrote to the object, would hold them)."""
    changed = copy.copy(stats)
    for name, value in fields.items():
        object.__setattr__(changed, name, value)
    return changed


@pytest.mark.parametrize("name", ["sacrebleu", "nltk", "ignite"])
@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"matches": (9, 9, 9, 9)}, "more matches"),
        ({"hypothesis_length": -3}, "hypothesis_length must be finite and non-negative"),
        ({"reference_length": math.nan}, "reference_length must be finite and non-negative"),
    ],
)
def test_unpickled_statistics_are_checked(
    name: str, fields: dict[str, object], message: str
) -> None:
    engine = BLEUScore.preset(name)
    stats = engine.count(["a b c d e"], [["a b c d e"]])
    assert pickle.loads(pickle.dumps(stats)) == stats
    with pytest.raises(InputError, match=message):
        pickle.loads(pickle.dumps(_tampered(stats, **fields)))


def test_an_unpickled_accumulator_is_checked() -> None:
    engine = BLEUScore.sacrebleu()
    accumulator = engine.accumulator()
    accumulator.update(["a b c d"], [["a b c d"]])
    restored = pickle.loads(pickle.dumps(accumulator))
    assert restored.compute() == accumulator.compute()
    object.__setattr__(accumulator, "_stats", _tampered(accumulator.stats, matches=(5, 3, 2, 1)))
    with pytest.raises(InputError, match="order 1 has more matches"):
        pickle.loads(pickle.dumps(accumulator))


# -- sizes that cannot be meant ----------------------------------------------------------------


@pytest.mark.parametrize("max_n", [1025, 2**62, 4_611_686_018_427_387_904])
def test_an_order_beyond_any_definition_is_refused_when_built(max_n: int) -> None:
    with pytest.raises(ConfigurationError, match="max_n must be a whole number from 1 to 1024"):
        ngrams.Contiguous(max_n)
    signature = str(BLEUScore.canonical().corpus_score(["a b"], [["a b"]]).signature)
    with pytest.raises(ConfigurationError, match="from 1 to 1024"):
        BLEUScore.from_signature(signature.replace("contiguous[4]", f"contiguous[{max_n}]"))


def test_the_highest_order_allowed_scores_short_segments_as_the_definition_says() -> None:
    # Orders above every segment's length count nothing: no smoothing, so a score of 0 (an
    # order of positive weight has no n-gram), and a candidate's pairwise score with itself
    # is 0 too. One order scores the unigram precision, 2/3 for "a b c" against "a b d".
    highest = BLEUScore.canonical(max_n=1024)
    assert highest.corpus_score(["a b c"], [["a b c"]]).score == 0.0
    matrix = highest.pairwise_scores([["a b", "a c", "b c"]])[0]
    assert matrix.tolist() == [[0.0] * 3] * 3
    assert BLEUScore.canonical(max_n=1).sentence_score("a b c", ["a b d"]).score == 2 / 3


@pytest.mark.parametrize(
    "build",
    [weights.Explicit, lambda values: BLEUScore.nltk(weights=values)],
    ids=["explicit", "nltk"],
)
def test_weights_whose_sum_would_overflow_are_refused_when_built(build: Any) -> None:
    with pytest.raises(ConfigurationError, match=r"magnitudes sum to at most 1e300"):
        build((1e308, 1e308, 1e308, 1e308))
    with pytest.raises(ConfigurationError, match=r"magnitudes sum to at most 1e300"):
        build((1e300, 1e299))
    build((5e299, 5e299))


def test_the_largest_weights_allowed_give_a_finite_score() -> None:
    # 1e300 * log(7/8) and the other orders' terms sum to about -1.9e300: exp of it is 0.
    engine = BLEUScore.canonical(weights=weights.Explicit((2.5e299,) * 4))
    hypotheses, references = ["a b c d", "a b x d"], [["a b c d"], ["a b c d"]]
    assert engine.corpus_score(hypotheses, references).score == 0.0
    assert engine.corpus_score(["a b c d"], [["a b c d"]]).score == 1.0


def test_weights_beyond_the_bound_are_a_usage_error_of_the_command(tmp_path: Path) -> None:
    text = tmp_path / "text.txt"
    text.write_text("a b c d\na b x d\n", encoding="utf-8")
    part = "weights=explicit[(1e308,1e308,1e308,1e308)]"
    ended = subprocess.run(
        [sys.executable, "-m", "bleuprint.cli", "score", "-r", text, "-i", text, "--part", part],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ended.returncode == 2
    assert ended.stdout == ""
    assert "magnitudes sum to at most 1e300" in ended.stderr
    assert "internal error" not in ended.stderr
