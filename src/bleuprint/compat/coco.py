"""coco-caption's ``Bleu`` (pycocoevalcap 1.2), the image-captioning standard.

BLEU-``n`` on whitespace tokens against the closest reference length (ties: the shorter),
without smoothing but with two constants (:class:`CocoConstants`, :class:`CocoPenalty`): every
precision is ``(matches + 1e-15) / (totals + 1e-9)``, and the length ratio of the brevity
penalty is ``(c + 1e-15) / (r + 1e-9)``. So a segment without a 4-gram match scores a tiny
positive number, not 0. ``Bleu(4)`` reports BLEU-1 to BLEU-4 at once: :func:`orders` gives the
weights that :meth:`~bleuprint.BLEUScore.score_weights` scores them with. ``tokenizer="ptb"``
reads raw text as pycocoevalcap's ``PTBTokenizer`` does (:class:`PTBStyle`).

>>> from bleuprint import BLEUScore
>>> bleu = BLEUScore.coco()
>>> stats = bleu.count(["a cat sat on a mat"], [["a cat sat on the mat"]])
>>> [round(result.score, 4) for result in bleu.score_weights(stats, orders(4))]
[0.8333, 0.7071, 0.63, 0.5373]
>>> round(bleu.compute("a cat sat on", ["a cat sat in"]), 6)  # no 4-gram match: not 0
0.000126
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
import regex

from bleuprint import ngrams, tokenizers
from bleuprint import weights as weight_parts
from bleuprint._exact import exactly
from bleuprint._segments import SegmentStats
from bleuprint._signature import Part
from bleuprint.exceptions import ConfigurationError
from bleuprint.presets import Preset
from bleuprint.typing import BoolArray, FloatArray, Tokenizer

__all__ = [
    "PRESET",
    "PRESETS",
    "CocoConstants",
    "CocoPenalty",
    "PTBStyle",
    "orders",
    "parts",
]

TINY = 1e-15
"""Added to the matches and to the hypothesis length."""
SMALL = 1e-9
"""Added to the totals and to the reference length."""


def parts(n: int = 4, tokenizer: str | None = None) -> dict[str, Any]:
    """The parts that compute ``Bleu(n)``'s BLEU-``n``: ``tokenizer=None`` splits the strings
    on whitespace, as ``Bleu`` does with what it is given; ``"ptb"`` tokenizes raw text as
    ``PTBTokenizer`` does first."""
    if tokenizer not in (None, "ptb"):
        raise ConfigurationError(f'tokenizer must be None or "ptb", got {tokenizer!r}')
    words: Tokenizer = PTBStyle() if tokenizer == "ptb" else tokenizers.Whitespace()
    return {
        "tokenizer": words,
        "ngrams": ngrams.Contiguous(n),
        "smoothing": CocoConstants(),
        "brevity_penalty": CocoPenalty(),
    }


def orders(n: int) -> tuple[weight_parts.Explicit, ...]:
    """The weights of BLEU-1 to BLEU-``n``, which ``Bleu(n)`` reports together: pass them to
    :meth:`~bleuprint.BLEUScore.score_weights` with statistics counted up to order ``n``."""
    return tuple(weight_parts.Explicit((1 / k,) * k) for k in range(1, n + 1))


@attrs.frozen
class CocoConstants(Part, family="smooth", name="coco-constants"):
    """Quirk (coco-caption): every precision is ``(matches + 1e-15) / (totals + 1e-9)``, so
    no precision is 0 or undefined.

    >>> from bleuprint import BLEUStats
    >>> from bleuprint import smoothing
    >>> smoothing.precisions(CocoConstants(), BLEUStats((3, 0), (4, 0), 4, 4))
    [0.7499999998125002, 1e-06]
    """

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every row's precisions, all defined."""
        precisions = (stats.matches + TINY) / (stats.totals + SMALL)
        return precisions, np.ones(precisions.shape, np.bool_)


@attrs.frozen
class CocoPenalty(Part, family="bp", name="coco-ratio"):
    """Quirk (coco-caption): ``exp(1 - 1 / ratio)`` where the ratio
    ``(c + 1e-15) / (r + 1e-9)`` is below 1, else 1; an empty hypothesis gets 0.

    >>> from bleuprint import brevity
    >>> round(brevity.penalty(CocoPenalty(), 3, 6), 4)
    0.3679
    """

    def penalty_array(
        self, hypothesis_lengths: FloatArray, reference_lengths: FloatArray
    ) -> FloatArray:
        """The penalty of each pair of lengths."""
        ratios = (hypothesis_lengths + TINY) / (reference_lengths + SMALL)
        penalties = np.ones(len(ratios))
        short = ratios < 1
        penalties[short] = exactly(math.exp, 1 - 1 / ratios[short])
        return penalties


# -- PTBTokenizer ------------------------------------------------------------------------------
#
# pycocoevalcap runs Stanford CoreNLP 3.4.1's PTBTokenizer (-preserveLines -lowerCase), then
# drops the tokens in its PUNCTUATIONS list. CoreNLP's lexer takes, at each point, the longest
# token any of its patterns matches; the rules below give the same tokens by splitting text
# where that lexer would, each written from its observed behaviour (the jar run on cases of
# each, tests/data/make_coco_ptb_tokens.py), not from its source. docs/definitions/compared.md
# lists where they still differ.

# pycocoevalcap's PUNCTUATIONS: the bracket tokens are upper-case there while the tokenizer's
# output is lower-case, so -lrb- and -rrb- stay.
_DROPPED = frozenset(
    [
        "''",
        "'",
        "``",
        "`",
        "-LRB-",
        "-RRB-",
        "-LCB-",
        "-RCB-",
        ".",
        "?",
        "!",
        ",",
        ":",
        "-",
        "--",
        "...",
        ";",
    ]
)
_PTB_BRACKETS = {"(": "-lrb-", ")": "-rrb-", "[": "-lsb-", "]": "-rsb-", "{": "-lcb-", "}": "-rcb-"}
# Quotation marks become PTB's: opening ones `` or `, closing ones '' or ' (a pair of marks is
# one token: U+201C U+2018 is ```).
_QUOTE_MARKS = "\"'`\u201c\u201d\u2018\u2019\u300c\u300d\u00ab\u00bb\u2039\u203a"
_PTB_QUOTES = str.maketrans(
    dict(
        zip(_QUOTE_MARKS, ["''", "'", "`", "``", "''", "`", "'", "``", "''", "``", "''", "`", "'"])
    )
)
# Abbreviations that keep their period wherever they are, as CoreNLP's lexer lists them (months,
# days, US states, company words, titles, ...): case-insensitive, except the few that are
# also common words, which need their capital ("Miss." but "miss."). An acronym keeps it at the end
# of a hyphenated word too (China-U.S., but x-Inc. loses it).
_ABBREVIATIONS = (
    "(?i:jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec|mon|tues?|wed|thu|thurs|fri"
    "|ala|ariz|calif|colo|conn|ct|dak|fla|ga|ind|kans?|ky|md|mich|minn|mo|mont|neb|nev|okla"
    "|penn|tenn|va|vt|wisc?|wyo|inc|cos?|corp|pp?t[ye]s?|ltd|plc|rt|bancorp|dept|bhd|assn|univ"
    "|intl|sys|tel|est|ext|sq|jr|sr|bros|blvd|rd|esq|etc|al|seq|mrs?|ms|drs?|profs?|sens?"
    "|reps?|attys?|lt|col|gen|messrs|govs?|adm|rev|maj|sgt|cpl|pvt|capt|ste?|ave|pres|lieut"
    "|hon|brig|co?mdr|pfc|spc|supts?|det|mt|m|mmes?|mlles?|vs|alex|wm|jos|cie|cf|treas|bldg"
    r"|(?:[a-z0-9]+-)*[a-z](?:\.[a-z])+)"
    "|A(?i:z|rk)|D(?i:el)|I(?i:ll)|L(?i:a)|M(?i:ass|iss)|O(?i:re)|P(?i:a)|T(?i:ex)|W(?i:ash)"
)
# A one-letter abbreviation keeps its period too ("John F. Kennedy"), except before a capitalised
# word that CoreNLP takes to start a sentence: these, found by running it, each a whole word
# followed by a space ("P. It is" but "P. It's", "P. The," keep it).
_SENTENCE_STARTS = (
    "The|Then|He|She|We|They|It|In|An?|If|You|But|So|As|At|This|That|These|There|Here|When"
    "|While|What|Some|Many|Our|Her|Their|One|After|However|Since|Yet|Now|About|Such|Other|Last"
    r"|According|Additionally|Earlier|More|Once|Mr\.|Ms\."
)
# ... and those that keep it only before a number ("No. 5", but "No. S53" loses it).
_BEFORE_NUMBERS = r"(?i:ca|figs?|prop|nos?|art|bldg|pp|op)"

_ABBREVIATION = re.compile(_ABBREVIATIONS)
_NUMBER_ABBREVIATION = re.compile(_BEFORE_NUMBERS)
_NUMBER_NEXT = re.compile(r"\s*\d")
_SENTENCE_NEXT = re.compile(rf"\s+(?:{_SENTENCE_STARTS})(?=\s|$)")
_SEPARATOR = re.compile(r";|[:,](?!\d)")


def _keeps_period(word: str, text: str, after: int) -> bool:
    """Whether ``word``, followed by a period ending at ``after`` in ``text``, is an
    abbreviation that keeps it there."""
    if len(word) == 1:
        return word.isascii() and word.isalpha() and not _SENTENCE_NEXT.match(text, after)
    return bool(
        _ABBREVIATION.fullmatch(word)
        or (_NUMBER_ABBREVIATION.fullmatch(word) and _NUMBER_NEXT.match(text, after))
    )


def _split_final_period(match: re.Match[str]) -> str:
    """A word's final period as a token of its own, unless the word keeps it; the word starts
    after the last colon, comma or semicolon, which later rules split off (Report:U.S.)."""
    word = match[1]
    last = _SEPARATOR.split(word)[-1]
    return match[0] if _keeps_period(last, match.string, match.end()) else f"{word} ."


def _split_first_period(match: re.Match[str]) -> str:
    """The first of several periods after an abbreviation stays with it (etc.., I...)."""
    word = match[1]
    return f"{word}. " if _keeps_period(word, match.string, match.end()) else match[0]


_Replacement = str | Callable[[re.Match[str]], str]


def _rule(
    needs: str, pattern: str | re.Pattern[str] | regex.Pattern[str], replacement: _Replacement
) -> tuple[re.Pattern[str], re.Pattern[str] | regex.Pattern[str], _Replacement]:
    """A rule of :class:`PTBStyle`: ``pattern`` (compiled here if a string) replaced by
    ``replacement``, tried only on texts with a character of the class ``[needs]`` (most rules
    look for characters most texts lack, and so most texts skip them)."""
    compiled = re.compile(pattern) if isinstance(pattern, str) else pattern
    return re.compile(f"[{needs}]"), compiled, replacement


# The HTML entities CoreNLP reads as the characters they stand for, before anything else (so
# "R&amp;D" is not an emoticon ";D"); it keeps any other whole.
_ENTITIES = {
    "amp": "&",
    "lt": " < ",
    "gt": " > ",
    "quot": ' " ',
    "apos": "'",
    "nbsp": " ",
    "mdash": " -- ",
    "ndash": " -- ",
}
_ENTITY = re.compile(rf"&({'|'.join(_ENTITIES)});")

# CoreNLP reads a word with a period, ? or ! between letters whole ("x.Don't": x.don ' t), and so
# splits no contraction (n't) or word (cannot) inside one: what follows this is not in one.
_NOT_IN_DOTTED_WORD = r"(?<![^\W\d_][.?!]\w*)"

# What follows a file name's first period, up to a space or a sentence's punctuation, with an
# extension CoreNLP knows (found by running it): "3a.txt" and "3a.b.c," are one word each, but
# "3a.D" and "(3a.txt)" are not.
_FILE_NAME_REST = (
    r"(?:[^\W_]+\.)*(?i:bat|bmp|c|cgi|class|cpp|dll|docx?|exe|gif|gz|h|html?|jar|java|jpe?g|mov"
    r"|mp3|pdf|php|pl|png|ppt|ps|py|sql|tar|txt|wav|x|xml|zip)[.,!?]*(?:\s|$)"
)

_PTB_RULES = (
    _rule(r"\u00ad", "\u00ad", ""),  # a soft hyphen is deleted, the word kept whole
    # words it splits in two: cannot, gonna, wanna, gotta, lemme, gimme
    _rule(
        r"AaEe",
        regex.compile(
            rf"{_NOT_IN_DOTTED_WORD}\b(?:(can)(not)|(gon|wan)(na)|(got)(ta)|(lem|gim)(me))\b",
            regex.IGNORECASE,
        ),
        r"\1\3\5\7 \2\4\6\8",
    ),
    # an abbreviation keeps the first of several periods (etc.., I...)
    _rule(r".", r"(?<![\w.])([A-Za-z]+(?:\.[A-Za-z]+)*)\.(?=\.)", _split_first_period),
    _rule(r".\u2026", r"\.{3,}|\u2026", " ... "),  # three periods or more are one ellipsis
    _rule(r".", r"(?<!\.)\.\.(?!\.)", " . . "),  # two are two periods
    # a word that starts with a digit ends at a period before a letter (17.Jahrhundert, 3mmのI.D:
    # 3mmのI . D; formula1.com is a word), and so does a number's decimals (.4900.en-de), unless
    # it is a file name (17.txt, 3.5.txt; seen before brackets are split off) or, for a word,
    # its next part is hyphenated (2.Bundesliga-Saison)
    _rule(
        r".",
        rf"(?:(?<![^\W_])(?<!\.)(\d[^\W_]*)\.(?![^\W_]+(?:\.[^\W_]+)*-)|(?<=\.)(\d[^\W_]*)\.)"
        rf"(?=[^\W\d_])(?!{_FILE_NAME_REST})",
        r"\1\2 . ",
    ),
    # two to four hyphens are a dash, as are these characters; a longer run stays as it is
    _rule(r"\-\u2013\u2014\u2015", r"(?<!-)-{2,4}(?!-)|[\u2013\u2014\u2015]", " -- "),
    _rule(r"\-", r"(-{5,})", r" \1 "),
    _rule(r"\-", r"-/", " - / "),  # a hyphen before a slash ("Ein-/Aus-Taste")
    _rule(r"\u20ac", r"\u20ac", " $ "),  # CoreNLP's lossy currency normalisation (not of \u00a5)
    _rule(r"\u00a3", r"\u00a3", " # "),
    _rule(
        r"()\[\]{}\"\u201c\u201d\u201e%=<>@^~|",
        r"(<<|>>|[()\[\]{}\"\u201c\u201d\u201e%=<>@^~|])",
        r" \1 ",
    ),
    # a dollar sign, with the capitals of a word before it (US$, but それはAU $)
    _rule(r"$", r"(?<![^\W\d_])[A-Z]*\$|\$", lambda match: f" {match[0]} "),
    _rule(r"`", r"(`{1,2})", r" \1 "),  # grave accents are opening quotes, two at most a token
    # didn\u2018t: did n`t
    _rule(
        r"\u2018",
        regex.compile(rf"{_NOT_IN_DOTTED_WORD}(\w)n\u2018t(?=s?\b)", regex.IGNORECASE),
        r"\1 n`t",
    ),
    # a left single quote, unless it is an apostrophe after d, l or o (O\u2018Mahony)
    _rule(r"\u2018", r"(?<!\b[DdLlOo])\u2018|\u2018(?![^\W\d_])", " \u2018 "),
    # a ? or ! between letters is inside a word ("not?I"); elsewhere a run of them is a token
    _rule(r"?!", r"(?<![^\W\d_])([?!]+)|([?!]+)(?![^\W\d_])", r" \1\2 "),
    # a run of asterisks is a token, and up to three escaped ones (\*\*)
    _rule(r"*\\", r"((?:\\\*){1,3}|\*+|\\)", r" \1 "),
    # a run of hash signs is a token, but one before letters starts a hashtag (#name, not #1),
    # which ends at the first character not a letter (#PRS_ORG#: #prs _ org #)
    _rule(r"#", r"(##+|#(?![^\W\d_]))", r" \1 "),
    _rule(r"#", r"(?<=[^\s#])#", " #"),
    _rule(r"#", r"(#[^\W\d_]+)", r" \1 "),
    # a run of underscores is a token; one between letters or digits joins them (x_t2)
    _rule(r"_", r"__+|(?<![^\W_])_|_(?![^\W_])", lambda match: f" {match[0]} "),
    # capitals joined by an ampersand at the start of a word are a word that ends with them
    # (AT&T, R&D-oriented: r&d - oriented, Q&As: q&a s, AT&T.com: at&t .com); any other
    # ampersand is a token (r & d, aR & D, x-R & D)
    _rule(r"&", r"(?<![\w-])([A-Z]+&[A-Z]+)(?=[\w./-])", r"\1 "),
    _rule(r"&", regex.compile(r"(?<!(?:^|[^\w-])[A-Z]+)&|&(?![A-Z])"), " & "),
    # a plus, unless it signs a number (+3) or is between capitals (A+GBT)
    _rule(r"+", r"(?<![A-Z])\+(?!\d)|\+(?![A-Z\d])", " + "),
    _rule(r"+", r"(?<=\S)\+(?=\d)", " +"),  # which starts a word (2+3: 2 +3)
    _rule(
        r"^\x00-\x7f",
        regex.compile(r"([^\x00-\x7f\u2010\u2011\u2018\u2019\u201a\u201e](?<=[\p{P}\p{S}]))"),
        r" \1 ",
    ),
    # these hyphens join words as - does
    _rule(r"\u2010\u2011", r"(?<![^\W_])([\u2010\u2011])|([\u2010\u2011])(?![^\W_])", r" \1\2 "),
    _rule(r"\u200b\ufeff", r"[\u200b\ufeff]", " "),  # zero-width spaces separate words
    # a fraction after a number of four digits at most is read with it (3643 10/12/21)
    _rule(r"/", r"\b(\d{1,4} \d{1,4}/\d{1,4})/", r"\1 / "),
    # a slash joins words of ASCII letters and digits, three at most (and/or, s/pdif, 1/2), not
    # after a hyphen or a number (0-100km/h: 0-100km / h); the word ends where they do
    # (r/militär: r/milit är); any other slash is a token
    _rule(
        r"/",
        r"(?<![\w.,-])([A-Za-z0-9]+(?:-[A-Za-z]+){0,2}(?:/[A-Za-z0-9]+(?:-[A-Za-z]+){0,2}){1,2})|/",
        lambda match: f" {match[0]} ",
    ),
    _rule(r".", rf"\b({_BEFORE_NUMBERS}\.)(?=\d)", r"\1 "),  # "No.5": no. 5
    # a word's digits end before a decimal point or comma, which starts a number (x15.5: x15 .5)
    _rule(r"\d", r"(?<=[^\W\d_])(\d+)(?=[.,:]\d)", r"\1 "),
    _rule(r".", r"(?<=[^\W\d_]{2})\.(?=\d)", " ."),  # and so do a word's letters (nr.10)
    # a hyphenated word ends at a period (John-F.-Kennedy, a-b.com), unless it starts an
    # acronym (3-mm-i.d.-Schlauch)
    _rule(r".", regex.compile(r"(?<=[^\W_]-[^\W_]+)\.(?![A-Za-z]\.)(?=[^\W\d_]|-)"), " . "),
    _rule(r".", r"(\d)\.-(?![A-Za-z0-9])", r"\1 . - "),  # a numbered step ("1.- Gehen")
    _rule(r":", r"(:\d+)-", r"\1 -"),  # a time ends at a hyphen (16:10-16:30, 13:7-Führung)
    _rule(r"\-", r"(?<=[^\W_])(-\d+)(?=[.,]\d)", r"\1 "),  # 0,3-0,5: 0,3-0 ,5
    # a number with a decimal point or comma ends before letters (39.5mm, 1,052ha; but
    # 0.3mm-0.5 is 0.3mm-0 .5), as does a signed one (-2mm)
    _rule(r".,:", r"([.,:]\d+)(?=[^\W\d_])(?![A-Za-z]+-[A-Za-z0-9])", r"\1 "),
    _rule(r"\-+", r"(?:^|(?<=\s))([-+]\d+(?:[.,:]\d+)*)(?=[^\W\d_])", r"\1 "),
    _rule(r".", r"(?:^|(?<=\s))\.(?=[^\W\d_])", ". "),  # a period that starts a word (.exe)
    # a closing single quote (Thomas'. continue.'), but d' j' l' are words
    _rule(r"'\u2019", r"(?<=[\w.])(?<!\b[DdJjLl])(['\u2019])(?=[\s.,;:-]|$)", r" \1 "),
    _rule(r"\-", r"([\w.])-(?=[\s,;:]|$)", r"\1 - "),  # a hyphen that ends a word ("Finanz- und")
    # a quote before digits, but for a year alone ('49 and '90s stay, not '49. nor '1949)
    _rule(r"'\u2019", r"(?:^|(?<=\s))(['\u2019])(?=\d)(?!\d\ds?(?:\s|$))", r"\1 "),
    # a period that ends a word before a space (not a comma: "Inc.,"), unless the word is an
    # abbreviation; numbers and names with periods inside lose theirs too (3.5.)
    _rule(r".", r"(?:^|(?<=\s))(\S*[^\s.])\.(?=\s|$)", _split_final_period),
    _rule(r";", ";", " ; "),  # after the period rule: "foo.;" keeps its period
    # a colon or a comma, unless between digits (1:1, 1,000); before digits it starts a number
    _rule(r":,", r"(?<!\d)([:,])(?!\d)|([:,])(?!\d)", r" \1\2 "),
    _rule(r":,", r"(?<![\d\s])([:,])(?=\d)", r" \1"),
    _rule(r"\-", r"(?:^|(?<=\s))-(?=[^\W\d])", " - "),  # a hyphen that starts a word (not -22)
    # contractions: n't, 's, 're, 've, 'll, 'd, 'm, with a straight apostrophe (but don\u2019ts is
    # do n\u2019ts)
    _rule(
        r"'\u2019",
        regex.compile(rf"{_NOT_IN_DOTTED_WORD}(\w)(n['\u2019]ts)\b", regex.IGNORECASE),
        r"\1 \2",
    ),
    _rule(
        r"'\u2019",
        regex.compile(rf"{_NOT_IN_DOTTED_WORD}(\w)n['\u2019]t\b", regex.IGNORECASE),
        r"\1 n't",
    ),
    _rule(r"'\u2019", r"\b([Yy]['\u2019])(?=[^\W\d_])", r"\1 "),  # y'all: y' all
    _rule(
        r"'\u2019",
        re.compile(r"(\w)['\u2019](s|re|ve|ll|d|m)(?![A-Za-z0-9])", re.IGNORECASE),
        r"\1 '\2 ",
    ),
    # an opening single quote that is not a contraction
    _rule(
        r"'\u2019",
        re.compile(
            r"(?:^|(?<=\s))(['\u2019])(?!(?:s|re|ve|ll|d|m|t)(?![A-Za-z0-9]))(?=[^\W\d])",
            re.IGNORECASE,
        ),
        r"\1 ",
    ),
    # what is left of apostrophes between letters are quotes (jing'an), unless one follows
    # some one-letter words (O'Neil, not a'target) or is between vowels (ma'am)
    _rule(
        r"'\u2019",
        r"(?<=[^\W_])['\u2019](?=\d)|(?<=[^\W_])(?<!\b[A-HJ-XZnDdLlOo])"
        r"(?:(?<![aeiouyAEIOUY])['\u2019]|['\u2019](?![aeiouA-Z]))(?=[^\W\d_])",
        " ' ",
    ),
)

# A web address's host name takes, oddly, no capitals, digits or hyphens, but other scripts'
# letters and punctuation ("按norton.Com/pricing", "ab、my.com"), and of these the marks that no
# word takes (、 + ~ #).
_HOST = r"[^\s\"`'<>|.!?(){}\x2c-\x5f$]"
_HOST_MARK = r"[^\w\s\"`'<>|.!?(){}\x2c-\x5f$]"
_TOP_DOMAIN = r"\.(?i:com|net|org|edu)"
_ADDRESS_PATH = r"/[^\s\"<>|()]+[^\s\"<>|.!?(){},-]"

# Tokens CoreNLP's lexer reads whole before any rule above could split them: web addresses, at
# the start of a word and not before a letter (my.comx is a longer word), unless their host holds
# a character no word takes, which CoreNLP's word from the same start stops at (ab、my.comx:
# ab、my.com x) and which starts a token after a word (Ab、my.com: ab 、my.com); e-mail addresses,
# Twitter names, SGML tags (<unk>), HTML entities but those of _ENTITIES (&#39;), pairs of
# quotation marks, and emoticons (not before a letter or a digit: ":Dog" is ": Dog"), whose
# brackets are named as brackets are.
_ADDRESSES = (
    r"https?://[^\s\"<>|()]+[^\s\"<>|.!?(){},-]"
    r"|(?<![\w.-])(?:www\.(?:[^\s\"<>|.!?(){},]+\.)+[A-Za-z]{2,4}"
    rf"|(?:{_HOST}+\.)*{_HOST}+{_TOP_DOMAIN})(?:{_ADDRESS_PATH}|(?![^\W_]))"
)
_MARKED_ADDRESS = (
    rf"(?:(?<![\w.-]){_HOST}*?|(?<=\w)){_HOST_MARK}{_HOST}*(?:\.{_HOST}+)*{_TOP_DOMAIN}"
    rf"(?:{_ADDRESS_PATH})?"
)
_OTHER_WHOLE = (
    r"(?<![^\W_])[A-Za-z0-9][^\s\"<>|()\xa0{}]*@(?:[^\s\"<>|(){}.\xa0]+\.)*[^\s\"<>|(){}.\xa0]+"
    r"|@[A-Za-z_][A-Za-z_0-9]*"
    r"|(?<!<)</?[A-Za-z!?][^\s>]*>"
    rf"|&(?!(?:{'|'.join(_ENTITIES)});)#?[A-Za-z0-9]+;"
    r"|''|[\u2018-\u201f\u00ab\u00bb\u2039\u203a]{2}"
    r"|[<>]?[:;=][-o*']?[()DPdpO\\{@|\[\]](?![A-Za-z0-9])"
)
_WHOLE = re.compile(f"({_ADDRESSES}|{_OTHER_WHOLE})")
# Looked for at every character, addresses with a mark would slow the tokenizer by a quarter: only
# texts with a top-level domain are searched for them.
_WHOLE_OR_MARKED_ADDRESS = re.compile(f"({_ADDRESSES}|{_MARKED_ADDRESS}|{_OTHER_WHOLE})")
_TOP_DOMAIN_SEEN = re.compile(_TOP_DOMAIN)
_BRACKET_NAMES = str.maketrans({"(": "-lrb-", ")": "-rrb-"})


# The code points CoreNLP 3.4.1's lexer has no rule for (its tables predate them, or it never
# read them as words or punctuation): it deletes each, warning "Untokenizable", and the text
# either side becomes two words. Ranges in hexadecimal, found by running its PTBTokenizer on
# every code point from U+0021 to U+2FFFF between two letters; later planes are taken as
# untokenizable too.
_UNTOKENIZABLE = (
    "7f 81-84 86-90 95 98-a0 37f-383 38b 38d 3a2 482 488-489 528-530 557-558 560 588 58b-590 "
    "5c8-5cf 5eb-5ef 5f5-5ff 604-605 60d-613 61c-61d 65f 66b-66c 70e 7b2-7bf 7f9 7fb-7ff 816-819 "
    "81b-823 825-827 829-83f 859-89f 8a1 8ad-8ff 93a-93b 94f 956-957 970 978 980 984 98d-98e "
    "991-992 9a9 9b1 9b3-9b5 9ba-9bb 9c5-9c6 9c9-9ca 9cf-9d6 9d8-9db 9de 9e4-9e5 9f2-a00 a04 "
    "a0b-a0e a11-a12 a29 a31 a34 a37 a3a-a3b a3d a50-a58 a5d a5f-a65 a70-a71 a75-a80 a84 a8e a92 "
    "aa9 ab1 ab4 aba-abb ad1-adf ae2-ae5 af0-b04 b0d-b0e b11-b12 b29 b31 b34 b3a-b3c b3e-b5b b5e "
    "b62-b65 b70 b72-b81 b84 b8b-b8d b91 b96-b98 b9b b9d ba0-ba2 ba5-ba7 bab-bad bba-bbd bc3-bc5 "
    "bc9 bce-bcf bd1-be5 bf0-c00 c04 c0d c11 c29 c34 c3a-c3c c57 c5a-c5f c62-c65 c70-c84 c8d c91 "
    "ca9 cb4 cba-cbc cbe-cdd cdf ce2-ce5 cf0 cf3-d04 d0d d11 d3b-d3c d45 d49-d4d d4f-d5f d62-d65 "
    "d70-d79 d80-d84 d97-d99 db2 dbc dbe-dbf dc7-e00 e3b-e3e e5a-e80 e83 e85-e86 e89 e8b-e8c "
    "e8e-e93 e98 ea0 ea4 ea6 ea8-ea9 eac ebe-ebf ec5 ec7 ece-ecf eda-edb ee0-eff f01-f1f f2a-f3f "
    "f48 f6d-f87 f8d-fff 102b-103e 104a-104f 1056-1059 105e-1060 1062-1064 1067-106d 1071-1074 "
    "1082-108d 108f 109a-109f 10c6 10c8-10cc 10ce-10cf 10fb 1249 124e-124f 1257 1259 125e-125f "
    "1289 128e-128f 12b1 12b6-12b7 12bf 12c1 12c6-12c7 12d7 1311 1316-1317 135b-137f 1390-139f "
    "13f5-1400 166d-166e 1680 169b-169f 16eb-16ff 170d 1712-171f 1732-173f 1752-175f 176d "
    "1771-177f 17b4-17d6 17d8-17db 17dd-17df 17ea-180f 181a-181f 1878-187f 18a9 18ab-18af "
    "18f6-18ff 191d-1945 196e-196f 1975-197f 19ac-19c0 19c8-19cf 19da-19ff 1a17-1a1f 1a55-1a7f "
    "1a8a-1a8f 1a9a-1aa6 1aa8-1b04 1b34-1b44 1b4c-1b4f 1b5a-1b82 1ba1-1bad 1be6-1bff 1c24-1c3f "
    "1c4a-1c4c 1c7e-1ce8 1ced 1cf2-1cf4 1cf7-1cff 1dc0-1dff 1f16-1f17 1f1e-1f1f 1f46-1f47 "
    "1f4e-1f4f 1f58 1f5a 1f5c 1f5e 1f7e-1f7f 1fb5 1fbf-1fc1 1fc5 1fcd-1fcf 1fd4-1fd5 1fdc-1fdf "
    "1fed-1ff1 1ff5 1ffd-200f 2012 2024-2025 2027 202a-202f 203c-203d 2043 2045-206f 2072-2073 "
    "208f 209d-209f 20a1-20a3 20a5-20ab 20ad-20ff 2150-2152 215f-2182 2185-218f 2c2f 2c5f "
    "2ce5-2cea 2cef-2cf1 2cf4-2cff 2d26 2d28-2d2c 2d2e-2d2f 2d68-2d6e 2d70-2d7f 2d97-2d9f 2da7 "
    "2daf 2db7 2dbf 2dc7 2dcf 2dd7 2ddf-2e2e 2e30-3000 3003-3004 3007-3011 3013-3030 3036-303a "
    "303d-3040 3097-309c 30a0 3100-3104 312e-3130 318f-319f 31bb-31ef 3200-33ff 4db6-4dff "
    "9fcd-9fff a48d-a4cf a4fe-a4ff a60d-a60f a62c-a63f a66f-a67e a698-a69f a6e6-a716 a720-a721 "
    "a789-a78a a78f a794-a79f a7ab-a7f7 a802 a806 a80b a823-a83f a874-a881 a8b4-a8cf a8da-a8f1 "
    "a8f8-a8fa a8fc-a8ff a926-a92f a947-a95f a97d-a983 a9b3-a9ce a9da-a9ff aa29-aa3f aa43 "
    "aa4c-aa4f aa5a-aa5f aa77-aa79 aa7b-aa7f aab0 aab2-aab4 aab7-aab8 aabe-aabf aac1 aac3-aada "
    "aade-aadf aaeb-aaf1 aaf5-ab00 ab07-ab08 ab0f-ab10 ab17-ab1f ab27 ab2f-abbf abe3-abef abfa- "
    "abff d7a4-d7af d7c7-d7ca d7fc-d7ff e000-f8ff fa6e-fa6f fada-faff fb07-fb12 fb18-fb1c fb1e "
    "fb29 fb37 fb3d fb3f fb42 fb45 fbb2-fbd2 fd3e-fd4f fd90-fd91 fdc8-fdef fdfc-fe6f fe75 fefd- "
    "ff00 ffbf-ffc1 ffc8-ffc9 ffd0-ffd1 ffd8-ffd9 ffdd-ffdf ffe2-ffe4 ffe7-2ffff "
)


def _untokenizable_class() -> str:
    """The character class of ``_UNTOKENIZABLE``, for a regular expression."""
    spans = []
    for span in _UNTOKENIZABLE.split():
        first, _, last = span.partition("-")
        spans.append(f"\\U{int(first, 16):08x}" + (f"-\\U{int(last, 16):08x}" if last else ""))
    return "[" + "".join(spans) + "\\U00030000-\\U0010ffff]"


_DELETED = re.compile(_untokenizable_class())


@attrs.frozen
class PTBStyle(Part, family="tok", name="ptb-style"):
    """Penn-Treebank-style tokens, lowercased, without the punctuation tokens pycocoevalcap
    drops: what coco-caption's ``PTBTokenizer`` gives on everyday text.

    Brackets become ``-lrb-`` ``-rrb-`` (which stay: pycocoevalcap drops them only in upper
    case), quotes, commas, colons, semicolons, ``?``, ``!``, dashes, ellipses and a final
    period are split off and dropped, and contractions split (``does n't``); abbreviations
    (``dec.``, ``ms.``), web and e-mail addresses, emoticons (``:--rrb-``) and HTML entities are
    read as CoreNLP 3.4.1's lexer reads them. It gives that lexer's tokens for 99.99% of the
    distinct lines of the WMT22 data, all but 6 that end with a one-letter abbreviation or
    ``ca.``, whose period CoreNLP keeps or drops by the first word of the caption it tokenizes
    next: ``docs/definitions/compared.md`` says why this tokenizer does not look at it.

    >>> PTBStyle()("A man (left) doesn't ride a horse, does he?")
    ['a', 'man', '-lrb-', 'left', '-rrb-', 'does', "n't", 'ride', 'a', 'horse', 'does', 'he']
    >>> PTBStyle()("Ms. Smith of AT&amp;T wrote to x@y.com on Dec. 5 :-)")
    ['ms.', 'smith', 'of', 'at&t', 'wrote', 'to', 'x@y.com', 'on', 'dec.', '5', ':--rrb-']
    """

    def __call__(self, text: str) -> list[str]:
        text = _DELETED.sub(" ", text)
        if "&" in text:
            text = _ENTITY.sub(lambda match: _ENTITIES[match[1]], text)
        whole = _WHOLE_OR_MARKED_ADDRESS if _TOP_DOMAIN_SEEN.search(text) else _WHOLE
        pieces = whole.split(text)
        words = []
        for index, piece in enumerate(pieces):
            if index % 2:
                words.append(piece.translate(_BRACKET_NAMES))
                continue
            rest = piece
            for needs, pattern, replacement in _PTB_RULES:
                if needs.search(rest):
                    rest = pattern.sub(replacement, rest)
            words.extend(rest.split())
        return [token for token in map(_token, words) if token not in _DROPPED]


def _token(word: str) -> str:
    """A word's token: brackets and quotation marks named as PTB names them, all else
    lowercased."""
    if word in _PTB_BRACKETS:
        return _PTB_BRACKETS[word]
    if not word.strip(_QUOTE_MARKS):
        return word.translate(_PTB_QUOTES)
    return word.lower()


PRESET = Preset("coco", "coco-caption (pycocoevalcap 1.2) Bleu", parts)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
