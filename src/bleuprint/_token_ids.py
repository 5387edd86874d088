"""Token ids: segments given as integers (a model's vocabulary) instead of text or strings.

Anywhere a segment is accepted, it may be a sequence of token ids: a list of Python ints, a
1-D numpy integer array, or anything that converts to one (a torch or JAX tensor, through
``__array__``, ``__dlpack__`` or ``.numpy()``; neither library is imported). A corpus of them
may be a 2-D array (one row per segment) and its references a 3-D one (segment, reference,
position). :class:`TokenIds` wraps such arrays with what a model's output needs: the padding
id, the end-of-sequence id, lengths, and an id that never matches (an unknown word's).

Ids are tokens: like a list of string tokens they are not tokenized, and they are compared
only for equality, so a corpus of ids scores as the same tokens written as strings. They skip
tokenizing and interning: each call labels the ids it was given ``0, 1, 2, ...`` with numpy
(:meth:`IdCorpus.of`) and hands them straight to the counting kernel.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from itertools import chain
from operator import itemgetter
from typing import Any, NamedTuple, overload

import attrs
import numpy as np
import numpy.typing as npt

from bleuprint._kernels import kernel
from bleuprint.exceptions import InputError, PaddingWarning, user_stacklevel
from bleuprint.typing import BoolArray, IntArray

__all__ = [
    "NEVER_MATCHING",
    "IdCorpus",
    "TokenIds",
    "as_id_corpus",
    "corpus_holds_ids",
    "ids_ndim",
    "run_positions",
    "segment_holds_ids",
]

Ids = npt.NDArray[Any]
"""Raw ids as given: any integer dtype (``object`` for Python ints beyond 64 bits)."""

NEVER_MATCHING = "never-"
"""How :meth:`IdCorpus.as_tokens` begins the word of an id that never matches."""

# Ids from 0 below the first bound (or the number of ids) are their own labels; below the
# second, they are labelled through a table of that size; others, by sorting.
_OWN_LABELS = 1 << 17
_TABLE_LABELS = 1 << 22


@attrs.frozen
class _Ragged:
    """Sequences of raw ids laid end to end: sequence ``s`` has ``lengths[s]`` ids, and
    ``never[p]`` marks an id that must never match (``None``: none does)."""

    ids: Ids
    lengths: IntArray
    never: BoolArray | None = None

    @classmethod
    def joined(cls, parts: Sequence[_Ragged]) -> _Ragged:
        if len(parts) == 1:
            return parts[0]
        if not parts:
            return _EMPTY
        never = None
        if any(part.never is not None for part in parts):
            never = np.concatenate([_never_of(part) for part in parts])
        return cls(_joined_ids([part.ids for part in parts]), _lengths_of(parts), never)

    def take(self, sequences: IntArray) -> _Ragged:
        """These sequences (by number), in this order."""
        starts = np.cumsum(self.lengths) - self.lengths
        lengths = self.lengths[sequences]
        positions = run_positions(starts[sequences], lengths)
        never = None if self.never is None else self.never[positions]
        return _Ragged(self.ids[positions], lengths, never)


def run_positions(starts: IntArray, lengths: IntArray) -> IntArray:
    """The positions of runs of items laid end to end, one run after the other: run ``k``
    is ``starts[k], starts[k] + 1, ...``, ``lengths[k]`` of them. This gathers some of the
    sequences of a ragged table (any of them, in any order) with one index array."""
    ends = np.cumsum(lengths)
    positions: IntArray = np.repeat(starts - ends + lengths, lengths)
    positions += np.arange(len(positions))
    return positions


_EMPTY = _Ragged(np.zeros(0, np.int64), np.zeros(0, np.int64))


def _never_of(part: _Ragged) -> BoolArray:
    return np.zeros(len(part.ids), bool) if part.never is None else part.never


def _lengths_of(parts: Sequence[_Ragged]) -> IntArray:
    return np.concatenate([part.lengths for part in parts]).astype(np.int64, copy=False)


def _joined_ids(arrays: Sequence[Ids]) -> Ids:
    """The arrays one after the other, in a dtype that holds every id exactly (numpy would
    turn signed and unsigned 64-bit ids together into floats)."""
    if not arrays:
        return np.zeros(0, np.int64)
    dtype = np.result_type(*arrays)
    if dtype.kind not in "iu":
        dtype = np.dtype(object)  # Python ints: exact, and slower (rare: ids beyond 63 bits)
    return np.concatenate([array.astype(dtype, copy=False) for array in arrays])


# -- the public wrapper ------------------------------------------------------------------------


class TokenIds(Sequence[Any]):
    """Token ids with their padding: a model's output or labels, as bleuprint should read them.

    ``ids`` is one sequence of ids (1-D), a batch of them (2-D: one segment per row, or a
    list of sequences of different lengths) or a batch of reference sets (3-D: segment,
    reference, position), as a numpy array, a list, or any array-like (a torch or JAX tensor).
    Of each sequence, bleuprint reads:

    - the first ``lengths[i]`` positions only, if ``lengths`` is given (one per sequence);
    - up to the first ``eos`` id (the end of sequence; it and what follows are ignored);
    - without any ``pad`` id, wherever it is (left or right padding, or HF's ``-100``).

    An ``unk`` id never matches: an n-gram holding one counts in the totals and the lengths,
    but is never credited, not even against the same id. In a 3-D batch, a reference that is
    only ``pad`` ids is absent (segments with fewer references fill the rest with padding).

    >>> import numpy as np
    >>> from bleuprint import BLEUScore
    >>> generated = np.array([[5, 6, 7, 8, 2, 0], [5, 9, 2, 0, 0, 0]])  # 2: eos, 0: pad
    >>> labels = np.array([[[5, 6, 7, 8, 0]], [[5, 9, 0, 0, 0]]])        # one reference each
    >>> bleu = BLEUScore.canonical(max_n=2)
    >>> bleu.sentence_scores(TokenIds(generated, pad=0, eos=2),
    ...                      TokenIds(labels, pad=0)).scores.tolist()
    [1.0, 1.0]
    >>> TokenIds(generated, pad=0, eos=2)[1].tolist()
    [5, 9]

    The same hypotheses as plain lists score the same; so do the ids written as strings:

    >>> bleu.corpus_score([[5, 6, 7, 8], [5, 9]], [[[5, 6, 7, 8]], [[5, 9]]]).score
    1.0
    """

    __slots__ = ("_groups", "_ndim", "_ragged")

    def __init__(
        self,
        ids: object,
        *,
        pad: int | None = None,
        eos: int | None = None,
        unk: int | None = None,
        lengths: object = None,
    ) -> None:
        for name, value in (("pad", pad), ("eos", eos), ("unk", unk)):
            if value is not None and not _is_int(value):
                raise InputError(f"TokenIds' {name} must be an integer id, got {value!r}")
        if isinstance(ids, TokenIds):
            raise InputError("TokenIds wraps ids, not TokenIds: give its array once")
        ndim, ragged, groups = _read(ids, "TokenIds", None)
        if pad is None and eos is None and lengths is None:
            _warn_of_tail_padding(ids, ragged, ndim, unk)
        ragged, groups = _without_padding(
            ragged, groups, () if pad is None else (pad,), eos, lengths
        )
        if unk is not None:
            ragged = attrs.evolve(ragged, never=ragged.ids == unk)
        self._ndim, self._ragged, self._groups = ndim, ragged, groups

    @classmethod
    def _of(cls, ndim: int, ragged: _Ragged, groups: IntArray | None = None) -> TokenIds:
        made = cls.__new__(cls)
        made._ndim, made._ragged, made._groups = ndim, ragged, groups
        return made

    @property
    def ndim(self) -> int:
        """1 for one sequence, 2 for a batch of them, 3 for a batch of reference sets."""
        return self._ndim

    def __len__(self) -> int:
        if self._ndim == 1:
            return len(self._ragged.ids)
        if self._groups is not None:
            return len(self._groups)
        return len(self._ragged.lengths)

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> TokenIds: ...

    def __getitem__(self, index: int | slice) -> Any:
        if self._ndim == 1:
            if isinstance(index, slice):
                ids, never = self._ragged.ids[index], self._ragged.never
                lengths = np.array([len(ids)], np.int64)
                return TokenIds._of(
                    1, _Ragged(ids, lengths, None if never is None else never[index])
                )
            return self._ragged.ids[index].item()
        if isinstance(index, slice):
            return TokenIds._of(self._ndim, *self._select(np.arange(len(self))[index]))
        number = range(len(self))[index]  # IndexError as a list gives it
        ragged, groups = self._select(np.array([number]))
        if groups is None:
            return TokenIds._of(1, ragged)
        return TokenIds._of(2, ragged)

    def _select(self, items: IntArray) -> tuple[_Ragged, IntArray | None]:
        if self._groups is None:
            return self._ragged.take(items), None
        starts = np.cumsum(self._groups) - self._groups
        counts = self._groups[items]
        return self._ragged.take(run_positions(starts[items], counts)), counts

    def tolist(self) -> list[Any]:
        """The ids read, as nested lists of Python ints."""
        if self._ndim == 1:
            return list(self._ragged.ids.tolist())
        return [item.tolist() for item in self]

    def __repr__(self) -> str:
        shown = self.tolist() if len(self) <= 4 else [*self[:3].tolist(), "..."]
        return f"TokenIds({shown!r}, ndim={self._ndim})"


def _without_padding(
    ragged: _Ragged,
    groups: IntArray | None,
    pads: Sequence[int],
    eos: int | None,
    lengths: object = None,
) -> tuple[_Ragged, IntArray | None]:
    """The sequences read: each up to its length and its first ``eos``, without ``pads``."""
    stops = ragged.lengths if lengths is None else _limits(ragged, lengths)
    if eos is not None:
        stops = _stops_at(ragged, stops, eos)
    return _trimmed(ragged, groups, stops, pads)


IGNORE_INDEX = -100
"""The ignore index of PyTorch's losses, which Hugging Face's labels carry as padding."""

_PADDING_HELP = (
    "name the padding (pad_id= or ignore_index= of Accumulator.update, BLEUScore.compute and "
    "the reward; TokenIds(ids, pad=...) anywhere)"
)


def _warn_of_tail_padding(given: object, ragged: _Ragged, ndim: int, unk: int | None) -> None:
    """Warn where one id ends every row of a rectangle of rows (an array, a padded batch),
    some row ends with it twice or more and some row holds another id: padding, almost
    surely, read as tokens (-100 has its own warning, when it is counted)."""
    lengths = ragged.lengths
    if ndim < 2 or len(lengths) < 2 or lengths[0] < 2 or not (lengths == lengths[0]).all():
        return
    rows = ragged.ids.reshape(len(lengths), int(lengths[0]))
    last = rows[:, -1]
    padding = last[0]
    if padding in {IGNORE_INDEX, unk} or not (last == padding).all():
        return
    if (rows[:, -2] == padding).any() and (rows != padding).any():
        shape = getattr(given, "shape", None)
        what = f"of this {tuple(shape)} batch" if shape is not None else "of these sequences"
        _warn(
            f"id {int(padding)} ends every row {what}, as padding does, and is counted as a "
            f"token: {_PADDING_HELP}"
        )


def warn_of_ignore_index(ids: Ids) -> None:
    """Warn where ids about to be counted hold -100, the ignore index labels are padded with."""
    if len(ids) and (ids == IGNORE_INDEX).any():
        _warn(
            f"id {IGNORE_INDEX} (the ignore index of PyTorch's losses, which labels are padded "
            f"with) is counted as a token: {_PADDING_HELP}"
        )


def _warn(message: str) -> None:
    warnings.warn(message, PaddingWarning, stacklevel=user_stacklevel())


class Padding(NamedTuple):
    """How token ids given to ``update``, ``compute`` or a reward are padded: ``pad_id`` and
    ``ignore_index`` are left out wherever they are, each sequence ends at its first
    ``eos_id``. With none of them, values are passed on as given."""

    pad_id: int | None = None
    ignore_index: int | None = None
    eos_id: int | None = None

    def segment(self, hypothesis: Any, references: Any) -> tuple[Any, Any]:
        """One segment's hypothesis (one sequence) and references (a row each; a row of
        padding only is no reference)."""
        if self == _NO_PADDING:
            return hypothesis, references
        return (
            self._read(hypothesis, "the hypothesis", 1),
            self._read(references, "the references", 2, one_segment=True),
        )

    def batch(self, hypotheses: Any, references: Any) -> tuple[Any, Any]:
        """A batch's hypotheses (2-D) and references (3-D: segment, reference, position)."""
        if self == _NO_PADDING:
            return hypotheses, references
        return (
            self._read(hypotheses, "the hypotheses", 2),
            self._read(references, "the references", 3),
        )

    def _read(self, value: object, what: str, ndim: int, one_segment: bool = False) -> TokenIds:
        """``value`` as :class:`TokenIds` of ``ndim`` dimensions, without the padding (with
        ``one_segment``, 2-D rows read as one segment's references). Errors name ``what``."""
        for name, given in self._asdict().items():
            if given is not None and not _is_int(given):
                raise InputError(f"{name} must be an integer id, got {given!r}")
        if isinstance(value, TokenIds):
            raise InputError(
                f"{what} are TokenIds, which say their own padding: give pad_id, ignore_index "
                "and eos_id to TokenIds, or give the array here"
            )
        where = f"{what} (pad_id, ignore_index and eos_id apply to token ids)"
        found, ragged, groups = _read(value, where, None)
        if found != ndim:
            raise InputError(_shape_problem(what, ndim, found))
        if one_segment:  # a batch of one segment, so that rows of padding only are left out
            groups = np.array([len(ragged.lengths)], np.int64)
        pads = tuple(pad for pad in (self.pad_id, self.ignore_index) if pad is not None)
        ragged, groups = _without_padding(ragged, groups, pads, self.eos_id)
        if one_segment:
            references: TokenIds = TokenIds._of(3, ragged, groups)[0]
            return references
        return TokenIds._of(ndim, ragged, groups)


_NO_PADDING = Padding()


def _shape_problem(what: str, ndim: int, found: int) -> str:
    if ndim == 3 and found == 2:
        return reference_rows_problem()
    shapes = {1: "one sequence", 2: "a batch of sequences (2-D)", 3: "a 3-D batch"}
    return f"{what} must be {shapes[ndim]}, got {found}-D ids"


def reference_rows_problem() -> str:
    """What to say of references given as one 2-D array of ids (one row per segment)."""
    return (
        "the references are a 2-D array of ids, one row per segment, but each segment takes a "
        "list of references: for one reference each, give references[:, None, :] (segment, "
        "reference, position) or [[row] for row in references]"
    )


def _limits(ragged: _Ragged, lengths: object) -> IntArray:
    """How many ids of each sequence ``lengths`` lets be read."""
    given = (
        np.asarray(lengths)
        if isinstance(lengths, (list, tuple))
        else _as_array(lengths, "TokenIds' lengths")
    )
    if given is None or given.dtype.kind not in "iu" or given.size != len(ragged.lengths):
        raise InputError(
            f"TokenIds' lengths must be {len(ragged.lengths)} whole numbers, one per sequence, "
            f"got {_described(lengths)}"
        )
    limits = given.reshape(-1).astype(np.int64)
    if (limits < 0).any():
        raise InputError(f"TokenIds' lengths must not be negative, got {int(limits.min())}")
    return np.minimum(ragged.lengths, limits)


def _stops_at(ragged: _Ragged, stops: IntArray, eos: int) -> IntArray:
    """How many ids of each sequence come before its first ``eos`` (at most ``stops``)."""
    ends = np.cumsum(ragged.lengths)
    at = np.flatnonzero(ragged.ids == eos)  # every eos: few, so what follows is cheap
    sequence = np.searchsorted(ends, at, side="right")
    first, index = np.unique(sequence, return_index=True)
    stops = stops.copy()
    stops[first] = np.minimum(stops[first], at[index] - (ends - ragged.lengths)[first])
    return stops


def _trimmed(
    ragged: _Ragged, groups: IntArray | None, stops: IntArray, pads: Sequence[int]
) -> tuple[_Ragged, IntArray | None]:
    """The first ``stops[s]`` ids of each sequence ``s`` without ``pads``; of references
    (``groups``: how many each segment has), those of padding only left out."""
    if not pads and (stops == ragged.lengths).all():
        return ragged, groups
    count = _Counts(ragged.lengths)
    keep = count.before(stops)
    counts = stops
    if pads:
        not_pad = ragged.ids != pads[0] if len(pads) == 1 else ~np.isin(ragged.ids, pads)
        keep &= not_pad
        counts = count.of(keep)
        if groups is not None:  # a reference of padding only is no reference
            absent = (ragged.lengths > 0) & (count.of(not_pad) == 0)
            if absent.any():
                segment = np.repeat(np.arange(len(groups)), groups)
                groups = np.bincount(segment[~absent], minlength=len(groups)).astype(np.int64)
                counts = counts[~absent]
    never = None if ragged.never is None else ragged.never[keep]
    return _Ragged(ragged.ids[keep], counts.astype(np.int64, copy=False), never), groups


class _Counts:
    """Per-sequence masks and counts of sequences laid end to end: on a rectangle (the rows
    of an array) by reshaping, else through each id's sequence number."""

    def __init__(self, lengths: IntArray) -> None:
        self.lengths = lengths
        rectangle = len(lengths) and lengths[0] > 0 and (lengths == lengths[0]).all()
        self.width = int(lengths[0]) if rectangle else None
        if self.width is None:
            self.sequence = np.repeat(np.arange(len(lengths)), lengths)

    def before(self, stops: IntArray) -> BoolArray:
        """Which ids come before their sequence's stop."""
        if self.width is not None:
            mask: BoolArray = (np.arange(self.width) < stops[:, None]).reshape(-1)
            return mask
        starts = np.cumsum(self.lengths) - self.lengths
        return np.arange(len(self.sequence)) < (starts + stops)[self.sequence]

    def of(self, mask: BoolArray) -> IntArray:
        """How many ids of each sequence the mask holds."""
        if self.width is not None:
            counts: IntArray = mask.reshape(-1, self.width).sum(axis=1)
            return counts
        return np.bincount(self.sequence[mask], minlength=len(self.lengths))


# -- reading what was given ------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _described(value: object) -> str:
    array = value if isinstance(value, np.ndarray) else None
    if array is not None:
        return f"an array of {array.dtype} with shape {array.shape}"
    if isinstance(value, str):
        return f"text ({value!r:.40})"
    return f"{type(value).__name__} {value!r:.40}"


def _as_array(value: object, where: str) -> np.ndarray[Any, Any] | None:
    """``value`` as a numpy array if it is or converts to one (without importing the library
    it comes from), else ``None``."""
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, (str, bytes, list, tuple)) or not _converts(value):
        return None
    try:
        return _converted(value)
    except (TypeError, RuntimeError, ValueError, BufferError) as error:
        first = error
    # A tensor on a GPU, or one that requires grad: torch wants .cpu() and .detach() first.
    # Each is tried once (on a tensor already on the host, .cpu() gives the same tensor back).
    for step in ("detach", "cpu"):
        method = getattr(value, step, None)
        if callable(method):
            value = method()
    try:
        return _converted(value)
    except (TypeError, RuntimeError, ValueError, BufferError):
        raise InputError(f"{where} could not be read as a numpy array: {first}") from None


def _converted(value: Any) -> np.ndarray[Any, Any]:
    if hasattr(value, "__array__"):
        return np.asarray(value)
    if hasattr(value, "__dlpack__"):
        return np.from_dlpack(value)
    return np.asarray(value.numpy())


def _array_problem(array: np.ndarray[Any, Any]) -> str | None:
    """Why an array cannot hold token ids, or ``None``."""
    kind = array.dtype.kind
    if kind in "iu" or (array.size == 0 and kind in "fc"):  # np.array([]) is of floats
        return None
    if kind == "b":
        return "booleans (a mask?), not token ids"
    if kind == "O":
        bad = next((item for item in array.reshape(-1) if not _is_int(item)), None)
        if bad is None:
            return None
        return f"a {type(bad).__name__} ({bad!r:.40}), not an integer token id"
    return f"numbers of dtype {array.dtype}, not integer token ids"


def _read(value: object, where: str, segment: int | None) -> tuple[int, _Ragged, IntArray | None]:
    """The dimensions, the sequences and (for 3-D input) the number of sequences of each
    segment, of an array-like or (nested) lists of ids."""
    if isinstance(value, TokenIds):
        return value._ndim, value._ragged, value._groups
    if isinstance(value, (list, tuple)):
        return _read_lists(value, where, segment)
    array = _as_array(value, where)
    if array is None:
        raise InputError(
            f"{where} must be token ids (integers: a list, a numpy array or a tensor), got "
            f"{_described(value)}",
            segment=segment,
        )
    problem = _array_problem(array)
    if problem or not 1 <= array.ndim <= 3:
        raise InputError(
            f"{where} must be an array of 1 to 3 dimensions of integer ids, got "
            f"{problem or f'{array.ndim} dimensions'}",
            segment=segment,
        )
    if array.dtype.kind == "O":
        array = np.array(array.tolist(), dtype=object).reshape(array.shape)
    elif array.dtype.kind not in "iu":
        array = array.astype(np.int64)  # empty
    width = array.shape[-1]
    sequences = int(np.prod(array.shape[:-1], dtype=np.int64))
    ragged = _Ragged(array.reshape(-1), np.full(sequences, width, np.int64))
    groups = np.full(array.shape[0], array.shape[1], np.int64) if array.ndim == 3 else None
    return array.ndim, ragged, groups


def _read_lists(
    value: Sequence[Any], where: str, segment: int | None
) -> tuple[int, _Ragged, IntArray | None]:
    nested = next((item for item in value if not _is_int(item)), None)
    if nested is None or not _is_sequence_like(nested):  # one sequence (refused by position)
        return 1, _python_ids(value, where, segment), None
    parts = [_read(item, f"{where}[{number}]", segment) for number, item in enumerate(value)]
    ndims = sorted({ndim for ndim, _, _ in parts})
    if len(ndims) != 1 or ndims == [3]:
        raise InputError(
            f"{where} must be sequences of ids, or lists of them, alike: its items have "
            f"{' and '.join(map(str, ndims))} dimensions",
            segment=segment,
        )
    ragged = _Ragged.joined([part for _, part, _ in parts])
    if ndims == [1]:
        return 2, ragged, None
    return 3, ragged, np.array([len(part.lengths) for _, part, _ in parts], np.int64)


def _is_sequence_like(value: object) -> bool:
    """A sequence or array (not a string, not a number)."""
    if isinstance(value, (str, bytes, np.generic)):
        return False
    return isinstance(value, (list, tuple, TokenIds, np.ndarray)) or _converts(value)


def _converts(value: object) -> bool:
    """Whether an object offers a way to become a numpy array."""
    return (
        hasattr(value, "__array__")
        or hasattr(value, "__dlpack__")
        or callable(getattr(value, "numpy", None))
    )


def _python_ids(values: Sequence[Any], where: str, segment: int | None) -> _Ragged:
    """One sequence of ids given as Python (or numpy) integers."""
    ids = _integers(values)
    if ids is None:
        for position, item in enumerate(values):
            if not _is_int(item):
                raise InputError(
                    f"{where} must hold integer token ids only, but item {position} is "
                    f"{_found(item)}",
                    segment=segment,
                )
        ids = np.array([int(value) for value in values], dtype=object)  # beyond 64 bits
    return _Ragged(ids, np.array([len(values)], np.int64))


def _integers(values: Sequence[Any]) -> Ids | None:
    """Python integers as an array, read by numpy (which tells their type as it reads them:
    ``True`` among ints is 1, as in Python); ``None`` where they are not all integers or do
    not fit 64 bits."""
    if not values:
        return np.zeros(0, np.int64)
    try:
        ids = np.array(values)
    except (ValueError, OverflowError):
        return None
    return ids if ids.dtype.kind in "iu" and ids.ndim == 1 else None


def _found(item: object) -> str:
    if isinstance(item, str):
        return f"a string ({item!r:.40}): give every segment as token ids, or every one as text"
    if isinstance(item, (bool, np.bool_)):
        return f"a bool ({item}), not a token id"
    return f"a {type(item).__name__} ({item!r:.40})"


def as_id_corpus(value: object) -> TokenIds | None:
    """``value`` as :class:`TokenIds` if it is TokenIds or an integer array-like (a corpus
    of ids as a 2-D array, a tensor), else ``None`` (text, lists, other arrays)."""
    if isinstance(value, TokenIds):
        return value
    if isinstance(value, (str, bytes, list, tuple)) or not _converts(value):
        return None
    array = _as_array(value, "the corpus")
    if array is None or array.dtype.kind not in "iu":
        return None  # text, objects or floats: read item by item, which names what is wrong
    return TokenIds(array)


# -- deciding what a corpus holds --------------------------------------------------------------


def ids_ndim(value: object) -> int | None:
    """Whether ``value`` is given as token ids, and of which shape: ``None`` where it is not
    (text, string tokens, a list of segments, anything else); else its dimensions, 1 for one
    sequence, 2 for a batch of them, 3 for a batch of reference sets. It need not be valid:
    reading it tells. This is the one answer to "is this token ids?"."""
    if isinstance(value, TokenIds):
        return value.ndim
    if isinstance(value, (list, tuple)):  # (a list of lists is one of segments)
        return 1 if value and isinstance(value[0], (int, float, np.number, np.bool_)) else None
    if isinstance(value, np.ndarray):
        numbers = value.dtype.kind in "iubfc" or (
            value.dtype.kind == "O" and value.size > 0 and _is_int(value.flat[0])
        )
        return value.ndim if numbers else None
    if isinstance(value, (str, bytes, np.generic)) or not _converts(value):
        return None
    ndim = getattr(value, "ndim", None)  # a tensor says, without a conversion
    if isinstance(ndim, int):
        return ndim
    array = _as_array(value, "the ids")
    return None if array is None else array.ndim


def corpus_holds_ids(hypotheses: Sequence[Any], references: Sequence[Any]) -> bool:
    """Whether a corpus gives token ids: its hypotheses say (its references, where every
    hypothesis is an empty list). Text is told apart at C speed: text corpora pay nothing."""
    if isinstance(hypotheses, TokenIds):
        return True
    types = set(map(type, hypotheses))
    if _all_strings(types):
        return False
    if not types <= {list, tuple}:
        return any(map(_given_as_ids, hypotheses))
    firsts = set(map(type, map(itemgetter(0), filter(None, hypotheses))))
    if firsts:
        return not _all_strings(firsts)
    return isinstance(references, TokenIds) or any(
        map(_given_as_ids, chain.from_iterable(map(_items, references)))
    )


def _all_strings(types: set[type]) -> bool:
    """Whether every type is str or a subclass (``numpy.str_``, a pandas column's): a string
    token is never an id, whatever its class."""
    return all(issubclass(kind, str) for kind in types)


def segment_holds_ids(hypothesis: object, references: Sequence[Any]) -> bool:
    """Whether any part of one segment is given as token ids."""
    return _given_as_ids(hypothesis) or any(map(_given_as_ids, _items(references)))


def _given_as_ids(segment: object) -> bool:
    return ids_ndim(segment) is not None


def _items(value: object) -> Iterable[object]:
    """What a segment's references are: a list's items, or the one thing given."""
    if isinstance(value, (list, tuple, TokenIds)):
        return value
    return [value]


# -- a corpus of ids, labelled for counting ----------------------------------------------------


@attrs.frozen
class IdCorpus:
    """A corpus of token ids, ready to count: every sequence (the hypotheses, then every
    reference of segment 0, of segment 1, ...) is ``token_ids[starts[t]:starts[t + 1]]``, its
    ids labelled ``0 .. vocabulary_size - 1`` (equal ids, equal labels; each id that never
    matches a label of its own)."""

    token_ids: IntArray
    starts: IntArray
    vocabulary_size: int
    segments: int
    reference_counts: IntArray
    given: Ids  # the ids as given, and which never match: to write them out
    never: BoolArray | None = None

    @classmethod
    def of(
        cls, hypotheses: Sequence[Any], references: Sequence[Any], first_segment: int = 0
    ) -> IdCorpus:
        """The corpus of ``hypotheses[i]`` against ``references[i]`` (errors name segment
        ``first_segment + i``)."""
        read = _corpus_at_once(hypotheses, references)  # (one pass: the common case)
        if read is None:
            hypothesis_ids = _hypotheses(hypotheses, first_segment)  # (errors in this order)
            reference_ids, counts = _references(references, first_segment)
            ragged = _Ragged.joined([hypothesis_ids, reference_ids])
        else:
            ragged, counts = read
        for segment in np.flatnonzero(counts == 0)[:1]:
            raise InputError("no references", segment=first_segment + int(segment))
        warn_of_ignore_index(ragged.ids)
        labels, vocabulary_size = _labels(ragged)
        never = np.flatnonzero(labels < 0) if ragged.never is not None else ()
        if len(never):  # the kernel takes labels in range(vocabulary_size): one label each
            labels[never] = vocabulary_size + np.arange(len(never))
            vocabulary_size += len(never)
        starts = np.concatenate(([0], np.cumsum(ragged.lengths)))
        hypotheses_count = len(ragged.lengths) - int(counts.sum())
        return cls(
            labels, starts, vocabulary_size, hypotheses_count, counts, ragged.ids, ragged.never
        )

    @property
    def token_counts(self) -> IntArray:
        """The number of ids of every sequence."""
        counts: IntArray = np.diff(self.starts)
        return counts

    def as_tokens(self) -> tuple[list[list[str]], list[list[list[str]]]]:
        """The hypotheses and references as lists of string tokens, for counting parts
        without array support: each id written in decimal (as a quirk part may expect), one
        that never matches as a word of its own (``never-1``, ``never-2``, ...)."""
        words = np.array([str(token) for token in self.given.tolist()], dtype=object)
        if self.never is not None:
            never = np.flatnonzero(self.never)
            words[never] = [f"{NEVER_MATCHING}{number}" for number in range(1, len(never) + 1)]
        sequences = np.split(words, self.starts[1:-1]) if self.segments else []
        tokens = [sequence.tolist() for sequence in sequences]
        ends = self.segments + np.cumsum(self.reference_counts)
        references = [tokens[end - count : end] for end, count in zip(ends, self.reference_counts)]
        return tokens[: self.segments], references


def sequences(candidates: Sequence[Any], what: str) -> IdCorpus:
    """Sequences of ids alone (candidates of MBR or pairwise scoring), labelled as in a
    corpus, with no references; an id that never matches is labelled -1 (it would match
    itself, where a candidate is its own pseudo-reference, under a label of its own)."""
    ragged = _hypotheses(candidates, None, what)
    warn_of_ignore_index(ragged.ids)
    labels, vocabulary_size = _labels(ragged)
    starts = np.concatenate(([0], np.cumsum(ragged.lengths)))
    none = np.zeros(0, np.int64)
    return IdCorpus(
        labels, starts, vocabulary_size, len(ragged.lengths), none, ragged.ids, ragged.never
    )


def _corpus_at_once(
    hypotheses: Sequence[Any], references: Sequence[Any]
) -> tuple[_Ragged, IntArray] | None:
    """A corpus whose sequences are all lists (or tuples) of Python ints, or all 1-D integer
    arrays, read in one pass into one array (see ``_at_once``): the hypotheses, then every
    reference of segment 0, of segment 1, ...; with the number of references of each segment.
    ``None`` for anything else."""
    if not isinstance(hypotheses, (list, tuple)) or not set(map(type, references)) <= {
        list,
        tuple,
    }:
        return None
    ragged = _at_once([*hypotheses, *chain.from_iterable(references)])
    if ragged is None:
        return None
    return ragged, np.fromiter(map(len, references), np.int64, len(references))


def _hypotheses(hypotheses: Sequence[Any], first: int | None, what: str = "hypothesis") -> _Ragged:
    """One sequence per hypothesis; errors name ``the {what}`` of segment ``first + i``, or
    where ``first`` is ``None``, ``{what} i``."""
    if isinstance(hypotheses, TokenIds):
        if hypotheses.ndim != 2:
            raise InputError(
                f"hypotheses given as TokenIds must be 2-D (one row per segment), got "
                f"{hypotheses.ndim}-D"
            )
        return hypotheses._ragged
    fast = _at_once(hypotheses)
    if fast is not None:
        return fast
    parts = []
    for number, item in enumerate(hypotheses):
        segment = number if first is None else first + number
        where = f"the {what}" if first is not None else f"{what} {number}"
        parts.append(_one_sequence(item, where, segment if first is not None else None))
    return _Ragged.joined(parts)


def _at_once(sequences: Sequence[Any]) -> _Ragged | None:
    """Sequences all given as lists or tuples of Python ints (read by the kernel), or all as
    1-D integer numpy arrays, read in one pass; ``None`` for anything else, to be read one by
    one (which names a problem)."""
    read = kernel.flat_ids(sequences)  # (None at once for anything but lists and tuples)
    if read is not None:
        return _Ragged(*read)
    types = set(map(type, sequences))
    if types != {np.ndarray}:
        return None
    if not {(array.ndim, array.dtype.kind) for array in sequences} <= {(1, "i"), (1, "u")}:
        return None
    ids = _joined_ids(sequences)
    return _Ragged(ids, np.fromiter(map(len, sequences), np.int64, len(sequences)))


def _one_sequence(item: object, where: str, segment: int | None) -> _Ragged:
    if isinstance(item, (str, bytes)):
        raise InputError(
            f"{where} is text ({item!r:.40}), but this corpus gives token ids: give every "
            "segment as token ids, or every one as text",
            segment=segment,
        )
    if isinstance(item, (list, tuple)) and item and isinstance(item[0], str):
        raise InputError(
            f"{where} is a list of string tokens, but this corpus gives token ids: give every "
            "segment as token ids, or every one as strings",
            segment=segment,
        )
    ndim, ragged, _ = _read(item, where, segment)
    if ndim != 1:
        raise InputError(
            f"{where} must be one sequence of token ids, got {ndim} dimensions", segment=segment
        )
    return ragged


def _references(references: Sequence[Any], first: int) -> tuple[_Ragged, IntArray]:
    if isinstance(references, TokenIds):
        groups = references._groups  # (how many references each segment has: 3-D only)
        if groups is None:
            raise InputError(
                "references given as TokenIds must be 3-D (segment, reference, position), got "
                f"{references.ndim}-D: for one reference each, add an axis (ids[:, None, :])"
            )
        return references._ragged, groups
    if set(map(type, references)) <= {list, tuple}:  # lists of sequences: all in one pass
        fast = _at_once(list(chain.from_iterable(references)))
        if fast is not None:
            return fast, np.fromiter(map(len, references), np.int64, len(references))
    parts: list[_Ragged] = []
    counts = np.zeros(len(references), np.int64)
    for number, item in enumerate(references):
        segment = first + number
        if isinstance(item, TokenIds) and item.ndim == 2:
            part = item._ragged
        elif isinstance(item, (list, tuple)) and ids_ndim(item) is None:
            part = _at_once(item) or _Ragged.joined(
                [_one_sequence(one, f"reference {k}", segment) for k, one in enumerate(item)]
            )
        else:
            part = _reference_rows(item, segment)
        parts.append(part)
        counts[number] = len(part.lengths)
    return _Ragged.joined(parts), counts


def _reference_rows(item: object, segment: int) -> _Ragged:
    """The references of one segment given as one array-like (a row per reference)."""
    if isinstance(item, (str, bytes)):
        raise InputError(
            f"the references are text ({item!r:.40}), but this corpus gives token ids: give "
            "every segment as token ids, or every one as text",
            segment=segment,
        )
    ndim, ragged, _ = _read(item, "the references", segment)
    if ndim != 2:
        found = "one sequence of ids ([ids] for one reference)" if ndim == 1 else f"{ndim}-D ids"
        raise InputError(
            f"the references must be a list of references (each a sequence of ids), got {found}",
            segment=segment,
        )
    return ragged


def _labels(ragged: _Ragged) -> tuple[IntArray, int]:
    """Labels ``0, 1, ...`` for the ids (equal ids, equal labels; -1 for an id that never
    matches), and how many labels there may be."""
    ids = ragged.ids
    if not len(ids):
        return np.zeros(0, np.int64), 0
    small = ids.dtype.kind in "iu" and ids.min() >= 0
    largest = int(ids.max()) if small else 0
    if small and largest < max(_OWN_LABELS, len(ids)):  # their own labels: no work at all
        labels: IntArray = ids.astype(np.int64, copy=False)
        size = largest + 1
    elif small and largest < _TABLE_LABELS:  # a table, not a sort: linear
        present = np.zeros(largest + 1, bool)
        present[ids] = True
        numbers = np.cumsum(present, dtype=np.int32) - 1  # 32 bits: summed much faster
        labels, size = numbers[ids].astype(np.int64), int(numbers[-1]) + 1
    else:
        distinct, inverse = np.unique(ids, return_inverse=True)
        labels, size = inverse.reshape(-1).astype(np.int64, copy=False), len(distinct)
    if ragged.never is not None and ragged.never.any():
        labels = np.where(ragged.never, -1, labels)
    return labels, size
