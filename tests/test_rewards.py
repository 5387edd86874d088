"""BLEU rewards in the form TRL's GRPOTrainer calls, against sacreBLEU run here."""

from __future__ import annotations

import pickle

import pytest
import sacrebleu

from bleuprint import BLEUScore, ConfigurationError, InputError
from bleuprint.rewards import BLEUReward, bleu_reward

COMPLETIONS = ["The cat sat on the mat.", "A dog barked!", "It rains, again.", ""]
REFERENCES = [
    "The cat sat on a mat.",
    ["The dog barked.", "A dog is barking!"],
    "It is raining again.",
    "Nothing.",
]


def sacrebleu_rewards() -> list[float]:
    return [
        sacrebleu.sentence_bleu(completion, [refs] if isinstance(refs, str) else refs).score
        for completion, refs in zip(COMPLETIONS, REFERENCES)
    ]


def test_text_completions_score_as_sacrebleu_sentence_bleu() -> None:
    reward = bleu_reward(scale=100)
    # TRL passes the prompts, the completions' ids and the other columns too.
    rewards = reward(
        completions=COMPLETIONS,
        prompts=["p"] * 4,
        completion_ids=[[1, 2]] * 4,
        references=REFERENCES,
        trainer_state=None,
    )
    assert rewards == pytest.approx(sacrebleu_rewards(), abs=1e-9)
    assert all(type(value) is float for value in rewards)
    unit = bleu_reward()(COMPLETIONS, references=REFERENCES)
    assert unit == pytest.approx([value / 100 for value in sacrebleu_rewards()], abs=1e-11)


def test_conversational_completions_read_the_last_assistant_message() -> None:
    conversations = [[{"role": "assistant", "content": text}] for text in COMPLETIONS[:3]] + [
        [
            {"role": "assistant", "content": "a first try"},
            {"role": "tool", "content": "an answer of a tool"},
            {"role": "assistant", "content": COMPLETIONS[3]},
        ]
    ]
    rewards = bleu_reward(scale=100)(conversations, references=REFERENCES)
    assert rewards == pytest.approx(sacrebleu_rewards(), abs=1e-9)


def test_any_configuration_and_column_and_name() -> None:
    reward = bleu_reward(BLEUScore.canonical(max_n=1), references="solution", name="bleu1")
    assert reward.__name__ == "bleu1"
    assert bleu_reward().__name__ == "bleu"
    # "a b c" against "a b d": 2 of 3 unigrams; "x" against "x y": BP = exp(1 - 2).
    assert reward(["a b c", "x"], solution=["a b d", "x y"]) == pytest.approx(
        [2 / 3, 0.36787944117144233], rel=1e-15
    )


def test_the_reward_pickles() -> None:
    reward = bleu_reward(scale=100, references="target")
    assert pickle.loads(pickle.dumps(reward)) == reward


def test_errors_name_the_column_and_the_completion() -> None:
    reward = bleu_reward(references="solution")
    with pytest.raises(InputError, match="'solution', which is missing; it was given"):
        reward(["a"], references=["a"])
    with pytest.raises(InputError, match="2 completions but 1 entries in 'solution'"):
        reward(["a", "b"], solution=["a"])
    with pytest.raises(InputError, match="entries in 'solution'"):
        reward(["a"], solution="a")
    with pytest.raises(InputError, match="completion 1 must be a string or a list of messages"):
        reward(["a", [{"role": "user", "content": "b"}]], solution=["a", "b"])
    with pytest.raises(ConfigurationError, match="scale must be a positive number"):
        bleu_reward(scale=0)
    with pytest.raises(ConfigurationError, match="scale must be a positive number"):
        BLEUReward(scale=float("inf"))
