"""BLEU as a reward for reinforcement learning, in the form TRL's ``GRPOTrainer`` calls.

TRL calls each reward function as ``reward(completions=..., prompts=..., **columns)`` with
one entry per sample in every argument (the dataset's other columns among the keyword
arguments), and takes back a list of floats. A completion is a string, or for conversational
data a list of messages (``[{"role": "assistant", "content": "..."}]``). The trainer logs the
reward under the function's ``__name__``.

>>> from bleuprint import BLEUScore
>>> from bleuprint.rewards import bleu_reward
>>> reward = bleu_reward(BLEUScore.canonical(max_n=2), references="solution")
>>> rewards = reward(["the cat is here", [{"role": "assistant", "content": "a dog"}]],
...                  solution=["the cat was here", ["one dog", "a dog"]], prompts=["...", "..."])
>>> [round(value, 4) for value in rewards]  # sqrt(3/4 * 1/3), and a match of one reference
[0.5, 1.0]

TRL also passes each completion's token ids as ``completion_ids`` (each ending with the
end-of-sequence id, where the model wrote one). A reward on ids reads them there, and the
references from a column of ids (one sequence, or a list of them, per sample):

>>> reward = bleu_reward(BLEUScore.canonical(max_n=2), hypotheses="completion_ids",
...                      references="reference_ids", eos=2)
>>> rewards = reward(["(text, unused)"] * 2, completion_ids=[[7, 8, 9, 2], [5, 7, 2]],
...                  reference_ids=[[7, 8, 9, 4], [[5, 7], [7]]])
>>> [round(value, 4) for value in rewards]  # all matched; BP = exp(1 - 4/3) for the first
[0.7165, 1.0]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, cast

import attrs

from bleuprint._engine import BLEUScore
from bleuprint._token_ids import Padding, ids_ndim
from bleuprint.exceptions import ConfigurationError, InputError

__all__ = ["BLEUReward", "bleu_reward"]


def _positive_finite(instance: object, attribute: attrs.Attribute[Any], value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf:
        raise ConfigurationError(f"{attribute.name} must be a positive number, got {value!r}")


@attrs.frozen
class BLEUReward:
    """A reward function: each completion's sentence BLEU against its references, times
    ``scale`` (1 for rewards in [0, 1], 100 for sacreBLEU's 0-100).

    ``references`` names the keyword argument (the dataset column) holding each sample's
    references: one string, or a list of strings (or of token ids: one sequence of ids, or a
    list of them). ``hypotheses`` names the keyword argument to read the hypotheses from
    instead of the completions: ``"completion_ids"`` for the ids TRL passes. With ids, ``eos``
    is the end-of-sequence id (it and what follows are ignored, in hypotheses and
    references), and ``pad_id`` and ``ignore_index`` (``-100`` in labels) are padding, left
    out wherever they are. Other keyword arguments are ignored, as TRL requires. Make one with
    :func:`bleu_reward`.
    """

    engine: BLEUScore = attrs.field(factory=BLEUScore.sacrebleu_sentence)
    references: str = "references"
    scale: float = attrs.field(default=1.0, validator=_positive_finite)
    name: str = "bleu"
    hypotheses: str | None = None
    eos: int | None = None
    pad_id: int | None = attrs.field(default=None, kw_only=True)
    ignore_index: int | None = attrs.field(default=None, kw_only=True)

    @property
    def __name__(self) -> str:
        """What TRL logs the reward as."""
        return self.name

    def __call__(self, completions: Sequence[Any], **columns: Any) -> list[float]:
        given = self._column(columns, self.references)
        if self.hypotheses is not None:
            completions = self._column(columns, self.hypotheses)
        if isinstance(completions, str) or not _entries(given) or len(given) != len(completions):
            raise InputError(
                f"{_count(completions)} {self.hypotheses or 'completions'} but {_count(given)} "
                f"entries in {self.references!r}: give one per completion"
            )
        hypotheses: Sequence[Any] = [
            _text(index, completion) for index, completion in enumerate(completions)
        ]
        references: Sequence[Any] = [
            [refs] if isinstance(refs, str) or ids_ndim(refs) == 1 else refs for refs in given
        ]
        padding = Padding(self.pad_id, self.ignore_index, self.eos)
        hypotheses, references = padding.batch(hypotheses, references)
        scores: list[float] = (
            self.engine.sentence_scores(hypotheses, references).scores * self.scale
        ).tolist()
        return scores

    def _column(self, columns: Mapping[str, Any], name: str) -> Any:
        if name not in columns:
            raise InputError(
                f"the reward reads the keyword argument {name!r}, which is missing; it was "
                f"given {sorted(columns) or 'none'}"
            )
        return columns[name]


def bleu_reward(
    engine: BLEUScore | None = None,
    *,
    references: str = "references",
    scale: float = 1.0,
    name: str = "bleu",
    hypotheses: str | None = None,
    eos: int | None = None,
    pad_id: int | None = None,
    ignore_index: int | None = None,
) -> BLEUReward:
    """The reward function of a configuration (by default sacreBLEU's ``sentence_bleu``:
    :meth:`BLEUScore.sacrebleu_sentence() <bleuprint.BLEUScore.sacrebleu_sentence>`), for
    ``GRPOTrainer(reward_funcs=[...])``: see :class:`BLEUReward`.

    >>> reward = bleu_reward(scale=100)
    >>> [round(value, 2) for value in reward(["Hello, world!"], references=["Hello world!"])]
    [35.36]
    """
    return BLEUReward(
        BLEUScore.sacrebleu_sentence() if engine is None else engine,
        references,
        scale,
        name,
        hypotheses,
        eos,
        pad_id=pad_id,
        ignore_index=ignore_index,
    )


def _entries(values: object) -> bool:
    """Whether a column is one entry per sample: a sequence, or an array or tensor of rows."""
    if isinstance(values, str):
        return False
    return isinstance(values, Sequence) or (ids_ndim(values) or 0) >= 2


def _count(values: object) -> str:
    if isinstance(values, Sequence) or _entries(values):
        return str(len(cast("Sequence[Any]", values)))
    return f"a {type(values).__name__} of"


def _text(index: int, completion: Any) -> Any:
    """A completion's text: itself, or the content of its last assistant message."""
    if isinstance(completion, str) or not isinstance(completion, Sequence):
        return completion  # text, or something the engine rejects with its own message
    if ids_ndim(completion) is not None:
        return completion
    for message in reversed(completion):
        if not isinstance(message, Mapping) or "content" not in message:
            break
        if message.get("role", "assistant") == "assistant":
            return message["content"]
    if all(isinstance(token, str) for token in completion):
        return completion  # a list of tokens
    raise InputError(
        f"completion {index} must be a string or a list of messages with an assistant "
        f"message's 'content', got {completion!r:.80}"
    )
