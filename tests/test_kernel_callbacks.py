"""Tokens that run Python code while the kernel reads them (issue 30): a user's tokenizer may
return any hashable tokens, and their ``__hash__`` or ``__eq__`` may change, even empty, the
list being read. Each kernel reads the tokens as they were given and scores them; run in a
child process, as a kernel that followed freed memory would crash it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

PROGRAM = """
import sys
from bleuprint import BLEUScore

class Meddling:
    # A token that empties the list it came in when it is hashed or compared.
    def __init__(self, word, tokens):
        self.word, self.tokens = word, tokens
    def __hash__(self):
        if "hash" in sys.argv:
            self.tokens.clear()
        return hash(self.word)
    def __eq__(self, other):
        if "eq" in sys.argv:
            self.tokens.clear()
        return isinstance(other, Meddling) and other.word == self.word

class Tokenizer:
    signature = "meddling"
    def __call__(self, text):
        tokens = []
        tokens.extend(Meddling(word, tokens) for word in text.split())
        return tokens

bleu = BLEUScore.canonical(tokenizer=Tokenizer())
hypotheses = ["a b c d e f g h", "p q r s t u v w x y"]
references = [["a b c d e f g x"], ["p q r s t u v w x y"]]
print(repr(bleu.corpus_score(hypotheses, references).score))
print(repr(bleu.sentence_score(hypotheses[0], references[0]).score))
"""


@pytest.mark.parametrize("kernel", ["compiled", "python"])
@pytest.mark.parametrize("meddles_in", ["hash", "eq"])
def test_tokens_that_change_their_list_are_scored_as_given(kernel: str, meddles_in: str) -> None:
    environment = {**os.environ, "BLEUPRINT_PURE_PYTHON": "1" if kernel == "python" else "0"}
    completed = subprocess.run(
        [sys.executable, "-c", PROGRAM, meddles_in],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    corpus, sentence = (float(line) for line in completed.stdout.split())
    # By hand, as for str tokens: 17/18 unigrams, 15/16 bigrams, 13/14 trigrams, 11/12
    # 4-grams matched over both segments, equal lengths; the first alone: 7/8, 6/7, 5/6, 4/5.
    assert corpus == pytest.approx((17 / 18 * 15 / 16 * 13 / 14 * 11 / 12) ** 0.25, rel=1e-12)
    assert sentence == pytest.approx((7 / 8 * 6 / 7 * 5 / 6 * 4 / 5) ** 0.25, rel=1e-12)


SHRINKING = """
from bleuprint._kernels import _compiled

class Shrinking:
    # A number that empties the list it came in when it is read as a float.
    def __float__(self):
        numbers.clear()
        return 1.0

numbers = []
numbers.extend(Shrinking() for _ in range(1000))
print(repr(_compiled.rounded_sum(numbers)))
"""


def test_numbers_that_change_their_list_are_summed_as_given() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", SHRINKING], capture_output=True, text=True, check=False, timeout=60
    )
    assert completed.returncode == 0, completed.stderr
    assert float(completed.stdout) == 1000.0
