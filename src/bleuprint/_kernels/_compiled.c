/* bleuprint's compiled kernel: the two loops of the fast path, built with the package.
 *
 * shared_ngram_counts counts the n-grams each segment's hypothesis shares with its
 * references; weighted_geometric_means gives each row's exp(fsum(w * log p)) with the very
 * operations of the scalar code. Both take and return numpy arrays (converted and allocated
 * through numpy's Python interface, so no numpy headers are needed to build), and both
 * release the GIL while they loop. bleuprint/_kernels/_python.py is the plain-Python twin:
 * same interface, same numbers.
 *
 * Built without floating-point contraction (-ffp-contract=off): a fused multiply-add would
 * round differently from the scalar code.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__SSE2__) && defined(__GNUC__)
#include <tmmintrin.h> /* (SSSE3's byte shuffle, in functions built for it: see threes_decoded) */
#define SSSE3_DISPATCH 1
static int has_ssse3; /* whether the processor has SSSE3 (told as the module starts) */
#endif

typedef int64_t i64;

#if defined(_MSC_VER)
#define ALWAYS_INLINE __forceinline
#else
#define ALWAYS_INLINE inline __attribute__((always_inline))
#endif

static PyObject *as_contiguous; /* numpy.ascontiguousarray */
static PyObject *zeros;         /* numpy.zeros */
static PyObject *input_error;   /* bleuprint.exceptions.InputError */

/* -- limits ------------------------------------------------------------------------------
 *
 * Checked before anything overflows, each a bleuprint InputError naming it (the twin keeps
 * the same ones, with the same words): a hypothesis's n-grams are labelled in 32 bits, and a
 * vocabulary's ids are kept in 32 bits. Both can be lowered when the kernel is built
 * (-DBLEUPRINT_MAX_HYPOTHESIS_TOKENS=..., -DBLEUPRINT_MAX_VOCABULARY=...), which the tests do
 * to reach them without gigabytes of input; never raised. */
#ifndef BLEUPRINT_MAX_HYPOTHESIS_TOKENS
#define BLEUPRINT_MAX_HYPOTHESIS_TOKENS (INT32_MAX - 1)
#endif
#ifndef BLEUPRINT_MAX_VOCABULARY
#define BLEUPRINT_MAX_VOCABULARY UINT32_MAX
#endif
#if BLEUPRINT_MAX_HYPOTHESIS_TOKENS > INT32_MAX - 1 || BLEUPRINT_MAX_VOCABULARY > UINT32_MAX
#error "the kernel's limits can be lowered, never raised"
#endif

/* Why a call that ran without the GIL stopped: memory ran out, or a limit was passed. */
typedef enum { OUT_OF_MEMORY, HYPOTHESIS_TOO_LONG, VOCABULARY_FULL } Failure;

/* NULL, with the exception that says `failure`. */
static PyObject *raise_failure(Failure failure)
{
    if (failure == HYPOTHESIS_TOO_LONG)
        PyErr_Format(input_error, "a hypothesis has more than %lld tokens, the most one can have",
                     (long long)BLEUPRINT_MAX_HYPOTHESIS_TOKENS);
    else if (failure == VOCABULARY_FULL)
        PyErr_Format(input_error,
                     "more than %lld distinct tokens in one call, the most a vocabulary holds: "
                     "count fewer segments at once",
                     (long long)BLEUPRINT_MAX_VOCABULARY);
    else
        PyErr_NoMemory();
    return NULL;
}

/* -- arrays ------------------------------------------------------------------------------ */

/* An argument as a C-contiguous numpy array of one dtype, held with its buffer. */
typedef struct {
    PyObject *array;
    Py_buffer view;
} Array;

static void release(Array *array)
{
    if (array->array != NULL) {
        PyBuffer_Release(&array->view);
        Py_CLEAR(array->array);
    }
}

/* `array` is `object` converted to `dtype` (int64, float64 or bool) and `ndim` dimensions;
 * -1 with an exception naming the argument where it cannot be. */
static int take(PyObject *object, const char *dtype, int ndim, const char *name, Array *array)
{
    array->array = PyObject_CallFunction(as_contiguous, "Os", object, dtype);
    if (array->array == NULL)
        return -1;
    if (PyObject_GetBuffer(array->array, &array->view, PyBUF_C_CONTIGUOUS) < 0) {
        Py_CLEAR(array->array);
        return -1;
    }
    if (array->view.ndim != ndim) {
        PyErr_Format(PyExc_ValueError, "%s must be a %d-dimensional array, got %d dimensions",
                     name, ndim, array->view.ndim);
        release(array);
        return -1;
    }
    return 0;
}

/* A new writable array of zeros of shape (rows,) or (rows, columns). */
static int new_zeros(Py_ssize_t rows, Py_ssize_t columns, const char *dtype, Array *array)
{
    PyObject *shape = columns < 0 ? Py_BuildValue("(n)", rows) : Py_BuildValue("(nn)", rows, columns);
    if (shape == NULL)
        return -1;
    array->array = PyObject_CallFunction(zeros, "Os", shape, dtype);
    Py_DECREF(shape);
    if (array->array == NULL)
        return -1;
    if (PyObject_GetBuffer(array->array, &array->view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        Py_CLEAR(array->array);
        return -1;
    }
    return 0;
}

static Py_ssize_t length(const Array *array) { return array->view.shape[0]; }
static i64 *ints(const Array *array) { return (i64 *)array->view.buf; }

/* -- counting ----------------------------------------------------------------------------
 *
 * A segment is counted one order at a time. Each distinct n-gram of its hypothesis gets a
 * label 0, 1, 2, ...; a reference n-gram gets the label of the same hypothesis n-gram, or -1.
 * Unigrams are found by token id; a longer n-gram by the label of its first n - 1 tokens with
 * the unigram label of its last token, in a small open-addressing table. Only n-grams whose
 * shorter parts are shared are looked up at all.
 */

typedef struct { i64 key, label; } BySlot; /* key -1: an empty slot */
typedef struct {
    i64 slot, in_hypothesis, most_in_a_reference, in_this_reference, this_reference;
} ByLabel;

/* Every table one call counts with; each call has its own, so calls may run on threads. */
typedef struct {
    const i64 *token_ids, *text_starts, *hypothesis_texts, *reference_texts, *reference_offsets;
    Py_ssize_t segments, max_n;
    i64 *singles;
    i64 *repeated; /* rows of 3: segment * max_n + n - 1, count in hypothesis, most in a reference */
    Py_ssize_t found, capacity;
    i64 *labels[2]; /* by position: n-gram label, unigram label; the references' after */
    i64 *keys, *at;  /* the positions that may be shared, and their keys (see candidates) */
    i64 *alive;      /* of the segment's texts (hypothesis, references): how many `at` lists */
    int32_t *by_token; /* a token's unigram label in the hypothesis being counted, else -1 */
    BySlot *by_slot;
    ByLabel *by_label; /* its last row: where the n-grams the hypothesis lacks are counted */
    Py_ssize_t sink;
    Failure failure; /* why counting stopped, where it did */
} Counter;

/* The row of `label`, or the sink's for -1 (without a branch: the compiler made one of ?:,
 * and which it is is random). */
static ALWAYS_INLINE ByLabel *row_of(const Counter *c, i64 label)
{
    i64 none = label >> 63; /* all ones for -1, else 0 */
    return &c->by_label[(label & ~none) | (c->sink & none)];
}

/* Of one text's positions from `first` to `last` (exclusive), those whose n-gram of order
 * n + 1 may be shared, as its first n tokens (labels[0][i]) and its last token
 * (labels[1][i + n]) are: their keys (the two labels in one number) go to `keys`, their
 * positions to `at` (both from `first` on). For bigrams (`listed` 0) every position is read;
 * for longer n-grams only the `alive` positions that `at` lists from the order before,
 * ascending (no other can be shared). In the hypothesis (`hypothesis`), a prefix's label may
 * be that of an n-gram no reference has: its counts (still in by_label) tell. Which positions
 * are kept is as good as random, so it is written without a branch: a mispredicted one cost
 * more than the writes. Returns how many. */
static ALWAYS_INLINE i64 candidates_of(Counter *c, i64 first, i64 last, i64 alive, i64 n,
                                       i64 unigrams, int hypothesis, int listed)
{
    i64 *at = c->at + first, *keys = c->keys + first;
    i64 count = listed ? alive : last - first;
    if (listed && count > 0 && at[count - 1] >= last) /* (its n-gram would end past the text) */
        count--;
    i64 kept = 0;
    for (i64 k = 0; k < count; k++) {
        i64 i = listed ? at[k] : first + k;
        i64 prefix = c->labels[0][i], tail = c->labels[1][i + n];
        int keep = (prefix >= 0) & (tail >= 0);
        if (hypothesis) /* (the sink's row where there is no label: kept out all the same) */
            keep &= row_of(c, prefix)->most_in_a_reference > 0;
        keys[kept] = prefix * unigrams + tail;
        at[kept] = i;
        kept += keep;
    }
    return kept;
}

static ALWAYS_INLINE i64 candidates(Counter *c, i64 first, i64 last, i64 alive, i64 n,
                                    i64 unigrams, int hypothesis)
{
    if (n == 1)
        return candidates_of(c, first, last, alive, n, unigrams, hypothesis, 0);
    return candidates_of(c, first, last, alive, n, unigrams, hypothesis, 1);
}

static i64 find_slot(const BySlot *by_slot, i64 key, i64 mask)
{
    i64 slot = (i64)((((uint64_t)key * 2654435761u) >> 16) & (uint64_t)mask); /* Knuth's */
    while (by_slot[slot].key != key && by_slot[slot].key != -1)
        slot = (slot + 1) & mask;
    return slot;
}

static i64 new_label(ByLabel *by_label, i64 label, i64 slot)
{
    by_label[label].slot = slot;
    by_label[label].in_hypothesis = 0;
    by_label[label].most_in_a_reference = 0;
    by_label[label].this_reference = -1;
    return label + 1;
}

/* Label the hypothesis's shared-so-far n-grams of order n + 1 and count them; return how
 * many distinct ones there are. */
static i64 label_hypothesis(Counter *c, i64 start, i64 size, i64 n, i64 unigrams, i64 mask)
{
    i64 distinct = 0;
    if (n == 0) {
        for (i64 i = 0; i < size; i++) { /* (new or seen is random: no branch) */
            int32_t *label = &c->by_token[c->token_ids[start + i]];
            i64 unseen = -(i64)(*label < 0); /* all ones or none (a ?: here became a branch) */
            i64 own = (*label & ~unseen) | (distinct & unseen);
            new_label(c->by_label, distinct, -1); /* (the next free row: harmless if seen) */
            *label = (int32_t)own;
            distinct -= unseen;
            c->by_label[own].in_hypothesis++;
            c->labels[0][i] = own;
        }
        return distinct;
    }
    i64 kept = candidates(c, 0, size - n, c->alive[0], n, unigrams, 1);
    c->alive[0] = kept;
    for (i64 k = 0; k < kept; k++) {
        i64 slot = find_slot(c->by_slot, c->keys[k], mask);
        if (c->by_slot[slot].key == -1) {
            c->by_slot[slot].key = c->keys[k];
            c->by_slot[slot].label = distinct;
            distinct = new_label(c->by_label, distinct, slot);
        }
        i64 label = c->by_slot[slot].label;
        c->by_label[label].in_hypothesis++;
        c->labels[0][c->at[k]] = label;
    }
    return distinct;
}

/* One more of this n-gram (a label, or the sink: none the hypothesis has) in reference
 * `number`, and the most of it in any one reference so far. */
static void count_one(ByLabel *counted, i64 number)
{
    i64 again = counted->this_reference == number;
    counted->this_reference = number;
    counted->in_this_reference = again * counted->in_this_reference + 1;
    if (counted->in_this_reference > counted->most_in_a_reference)
        counted->most_in_a_reference = counted->in_this_reference;
}

/* One more of this n-gram in the only reference: its count there is the most. */
static void count_only(ByLabel *counted, i64 Py_UNUSED(number)) { counted->most_in_a_reference++; }

typedef void (*Count)(ByLabel *counted, i64 number);

/* Count the n-grams of order n + 1 of the segment's reference `number` (labelled from
 * `position` on) that the hypothesis has too, and label them (-1 for the others); list those
 * (alive[number + 1]). */
static ALWAYS_INLINE void count_in_reference(Counter *c, i64 start, i64 size, i64 position,
                                             i64 n, i64 unigrams, i64 number, i64 mask,
                                             Count counted)
{
    if (n == 0) {
        for (i64 i = position; i < position + size; i++) {
            i64 label = c->by_token[c->token_ids[start + i - position]];
            c->labels[0][i] = c->labels[1][i] = label;
            counted(row_of(c, label), number);
        }
        return;
    }
    i64 *alive = &c->alive[number + 1];
    i64 kept = candidates(c, position, position + size - n, *alive, n, unigrams, 0);
    i64 *at = c->at + position, *keys = c->keys + position, found = 0;
    for (i64 k = 0; k < kept; k++) {
        i64 slot = find_slot(c->by_slot, keys[k], mask);
        i64 label = c->by_slot[slot].key == keys[k] ? c->by_slot[slot].label : -1;
        c->labels[0][at[k]] = label;
        counted(row_of(c, label), number);
        at[found] = at[k]; /* (listed for the next order if the hypothesis has it) */
        found += label >= 0;
    }
    *alive = found;
}

/* The references of one segment counted at order n + 1 (their labels from `position` on). */
static void count_in_references(Counter *c, i64 segment, i64 position, i64 n, i64 unigrams,
                                i64 mask)
{
    const i64 *starts = c->text_starts;
    i64 first = c->reference_offsets[segment], last = c->reference_offsets[segment + 1];
    for (i64 number = 0; number < last - first; number++) {
        i64 reference = c->reference_texts[first + number];
        i64 size = starts[reference + 1] - starts[reference];
        if (last - first == 1) /* (the common case, with less to keep) */
            count_in_reference(c, starts[reference], size, position, n, unigrams, number, mask,
                               count_only);
        else
            count_in_reference(c, starts[reference], size, position, n, unigrams, number, mask,
                               count_one);
        position += size;
    }
}

/* The hypothesis's unigram labels, -1 for those no reference has (the longer n-grams'
 * are told apart in `candidates`). An unlabelled position reads the sink's row, and stays -1
 * whatever it holds. No branch: shared or not is random (the compiler made one of ?: here,
 * mispredicted, which cost 3.6% of a count of files). */
static void forget_unshared(Counter *c, i64 positions)
{
    for (i64 i = 0; i < positions; i++) {
        i64 label = c->labels[0][i];
        const ByLabel *counts = row_of(c, label);
        c->labels[1][i] = label | ((i64)(counts->most_in_a_reference > 0) - 1); /* (or all ones) */
    }
}

/* Room in `repeated` for `more` rows; 0 where memory ran out. */
static int reserve_repeated(Counter *c, i64 more)
{
    if (c->found + more <= c->capacity)
        return 1;
    Py_ssize_t capacity = 2 * c->capacity;
    while (capacity < c->found + more)
        capacity *= 2;
    i64 *grown = realloc(c->repeated, (size_t)capacity * 3 * sizeof(i64));
    if (grown == NULL)
        return 0;
    c->repeated = grown;
    c->capacity = capacity;
    return 1;
}

/* Count every segment; 0 where memory ran out. */
static int count_segments(Counter *c)
{
    const i64 *starts = c->text_starts;
    for (i64 segment = 0; segment < c->segments; segment++) {
        i64 text = c->hypothesis_texts[segment];
        i64 start = starts[text], size = starts[text + 1] - start;
        i64 mask = 15;
        while (mask + 1 < 4 * size)
            mask = 2 * mask + 1;
        i64 unigrams = 0, orders = c->max_n < size ? c->max_n : size;
        for (i64 n = 0; n < orders; n++) { /* n: the order minus one */
            i64 distinct = label_hypothesis(c, start, size, n, unigrams, mask);
            if (distinct == 0)
                break;
            count_in_references(c, segment, size, n, unigrams, mask);
            if (!reserve_repeated(c, distinct))
                return 0;
            /* (locals: the compiler would read the fields again after each row's stores) */
            i64 shared = 0, singles = 0, found = c->found, order = segment * c->max_n + n;
            i64 *repeated = c->repeated;
            for (i64 label = 0; label < distinct; label++) {
                const ByLabel *counts = &c->by_label[label];
                if (n > 0)
                    c->by_slot[counts->slot].key = -1;
                i64 most = counts->most_in_a_reference;
                int single = (counts->in_hypothesis == 1) & (most == 1); /* (no branch) */
                shared += most > 0; /* (summed, not branched on: shared or not is random) */
                singles += single;
                i64 *row = &repeated[3 * found]; /* (written always, kept if repeated) */
                row[0] = order;
                row[1] = counts->in_hypothesis;
                row[2] = most;
                found += (most > 0) & !single;
            }
            c->found = found;
            c->singles[order] = singles;
            if (shared == 0 || n == c->max_n - 1)
                break;
            if (n == 0) {
                forget_unshared(c, size);
                unigrams = distinct;
            }
        }
        for (i64 i = 0; i < size; i++) /* (clean for the next segment) */
            c->by_token[c->token_ids[start + i]] = -1;
    }
    return 1;
}

/* The most tokens of one hypothesis, of the references of one segment together, and the
 * most texts of a segment (at least 1 each). */
static void longest(const Counter *c, i64 *hypothesis, i64 *references, i64 *texts)
{
    const i64 *starts = c->text_starts;
    *hypothesis = *references = *texts = 1;
    for (i64 segment = 0; segment < c->segments; segment++) {
        i64 count = c->reference_offsets[segment + 1] - c->reference_offsets[segment];
        if (count + 1 > *texts)
            *texts = count + 1;
        i64 text = c->hypothesis_texts[segment];
        if (starts[text + 1] - starts[text] > *hypothesis)
            *hypothesis = starts[text + 1] - starts[text];
        i64 tokens = 0;
        for (i64 j = c->reference_offsets[segment]; j < c->reference_offsets[segment + 1]; j++)
            tokens += starts[c->reference_texts[j] + 1] - starts[c->reference_texts[j]];
        if (tokens > *references)
            *references = tokens;
    }
}

/* Allocate the tables and count; 0 where memory ran out. */
static int count(Counter *c, i64 vocabulary_size)
{
    i64 longest_hypothesis, longest_references, most_texts;
    longest(c, &longest_hypothesis, &longest_references, &most_texts);
    if (longest_hypothesis > BLEUPRINT_MAX_HYPOTHESIS_TOKENS) { /* (labels of 32 bits) */
        c->failure = HYPOTHESIS_TOO_LONG;
        return 0;
    }
    i64 slots = 16;
    while (slots < 4 * longest_hypothesis)
        slots *= 2;
    i64 positions = longest_hypothesis + longest_references;
    c->capacity = 1 << 12;
    c->repeated = malloc((size_t)c->capacity * 3 * sizeof(i64));
    c->labels[0] = malloc((size_t)positions * 4 * sizeof(i64));
    c->by_token = malloc((size_t)(vocabulary_size > 0 ? vocabulary_size : 1) * sizeof(int32_t));
    c->by_slot = malloc((size_t)slots * sizeof(BySlot));
    c->alive = malloc((size_t)most_texts * sizeof(i64));
    c->by_label = calloc((size_t)longest_hypothesis + 1, sizeof(ByLabel));
    c->sink = longest_hypothesis;
    int counted = 0;
    if (c->repeated && c->labels[0] && c->by_token && c->by_slot && c->by_label && c->alive) {
        c->labels[1] = c->labels[0] + positions;
        c->keys = c->labels[0] + 2 * positions;
        c->at = c->labels[0] + 3 * positions;
        memset(c->by_token, 0xff, (size_t)vocabulary_size * sizeof(int32_t)); /* all -1 */
        for (i64 slot = 0; slot < slots; slot++)
            c->by_slot[slot].key = c->by_slot[slot].label = -1;
        counted = count_segments(c);
    }
    free(c->labels[0]);
    free(c->by_token);
    free(c->by_slot);
    free(c->by_label);
    free(c->alive);
    return counted;
}

/* Whether `offsets` holds `spans` + 1 offsets into an array of `limit` items, from 0 or more
 * to `limit` or less, never decreasing; else a ValueError naming it and saying what it must
 * hold (`holds`). */
static int check_offsets(const Array *offsets, Py_ssize_t spans, Py_ssize_t limit,
                         const char *name, const char *holds)
{
    const i64 *at = ints(offsets);
    if (length(offsets) != spans + 1 || at[0] < 0 || at[spans] > limit) {
        PyErr_Format(PyExc_ValueError, "%s must hold %s", name, holds);
        return -1;
    }
    for (Py_ssize_t k = 0; k < spans; k++)
        if (at[k + 1] < at[k]) {
            PyErr_Format(PyExc_ValueError, "%s must not decrease (at %zd)", name, k + 1);
            return -1;
        }
    return 0;
}

/* Where the arrays describe texts, segments and tokens inconsistently: a ValueError naming
 * the argument, as reading past an array would crash the process. */
static int check_tables(const Array *token_ids, const Array *text_starts,
                        const Array *hypothesis_texts, const Array *reference_texts,
                        const Array *reference_offsets, Py_ssize_t vocabulary_size,
                        Py_ssize_t max_n)
{
    if (max_n < 1) {
        PyErr_Format(PyExc_ValueError, "max_n must be at least 1, got %zd", max_n);
        return -1;
    }
    if (vocabulary_size < 0) {
        PyErr_Format(PyExc_ValueError, "vocabulary_size must not be negative, got %zd",
                     vocabulary_size);
        return -1;
    }
    Py_ssize_t texts = length(text_starts) - 1; /* (none at all: refused, as too short) */
    if (check_offsets(text_starts, texts < 0 ? 0 : texts, length(token_ids), "text_starts",
                      "the start of every text and the end of the last, within token_ids") < 0)
        return -1;
    for (Py_ssize_t i = 0; i < length(token_ids); i++)
        if (ints(token_ids)[i] < 0 || ints(token_ids)[i] >= vocabulary_size) {
            PyErr_Format(PyExc_ValueError, "token_ids[%zd] is %lld, not in range(%zd)", i,
                         (long long)ints(token_ids)[i], vocabulary_size);
            return -1;
        }
    const Array *numbered[2] = {hypothesis_texts, reference_texts};
    const char *names[2] = {"hypothesis_texts", "reference_texts"};
    for (int k = 0; k < 2; k++)
        for (Py_ssize_t i = 0; i < length(numbered[k]); i++)
            if (ints(numbered[k])[i] < 0 || ints(numbered[k])[i] >= texts) {
                PyErr_Format(PyExc_ValueError, "%s[%zd] is %lld, not a text number below %zd",
                             names[k], i, (long long)ints(numbered[k])[i], texts);
                return -1;
            }
    return check_offsets(reference_offsets, length(hypothesis_texts), length(reference_texts),
                         "reference_offsets",
                         "one offset per segment and one more, within reference_texts");
}

/* The rows of `repeated` a count found, as a new array of shape (rows, 3). */
static PyObject *repeated_array(const Counter *c)
{
    Array repeated = {0};
    if (new_zeros(c->found, 3, "int64", &repeated) < 0)
        return NULL;
    if (c->found > 0)
        memcpy(repeated.view.buf, c->repeated, (size_t)c->found * 3 * sizeof(i64));
    PyObject *array = Py_NewRef(repeated.array);
    release(&repeated);
    return array;
}

/* What a counting call returns: `arrays`, then the repeated n-grams as one more array, in a
 * tuple; NULL with an error where counting failed (`counted` 0: see c->failure). The
 * counter's list of repeated n-grams is freed either way. */
static PyObject *counted_tuple(int counted, Counter *c, PyObject *const *arrays,
                               Py_ssize_t count)
{
    PyObject *repeated = counted ? repeated_array(c) : raise_failure(c->failure);
    free(c->repeated);
    c->repeated = NULL;
    PyObject *result = repeated == NULL ? NULL : PyTuple_New(count + 1);
    if (result == NULL) {
        Py_XDECREF(repeated);
        return NULL;
    }
    for (Py_ssize_t k = 0; k < count; k++)
        PyTuple_SET_ITEM(result, k, Py_NewRef(arrays[k]));
    PyTuple_SET_ITEM(result, count, repeated);
    return result;
}

static PyObject *shared_ngram_counts(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"token_ids", "text_starts", "hypothesis_texts", "reference_texts",
                               "reference_offsets", "vocabulary_size", "max_n", NULL};
    PyObject *objects[5];
    Py_ssize_t vocabulary_size, max_n;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOnn:shared_ngram_counts", keywords,
                                     &objects[0], &objects[1], &objects[2], &objects[3],
                                     &objects[4], &vocabulary_size, &max_n))
        return NULL;
    Array arrays[5] = {{0}}, singles = {0};
    PyObject *result = NULL;
    Counter c = {0};
    int counted;
    for (int k = 0; k < 5; k++)
        if (take(objects[k], "int64", 1, keywords[k], &arrays[k]) < 0)
            goto done;
    if (check_tables(&arrays[0], &arrays[1], &arrays[2], &arrays[3], &arrays[4], vocabulary_size,
                     max_n) < 0)
        goto done;
    c.token_ids = ints(&arrays[0]);
    c.text_starts = ints(&arrays[1]);
    c.hypothesis_texts = ints(&arrays[2]);
    c.reference_texts = ints(&arrays[3]);
    c.reference_offsets = ints(&arrays[4]);
    c.segments = length(&arrays[2]);
    c.max_n = max_n;
    if (new_zeros(c.segments, max_n, "int64", &singles) < 0)
        goto done;
    c.singles = ints(&singles);
    Py_BEGIN_ALLOW_THREADS
    counted = count(&c, vocabulary_size);
    Py_END_ALLOW_THREADS
    result = counted_tuple(counted, &c, &singles.array, 1);
done:
    for (int k = 0; k < 5; k++)
        release(&arrays[k]);
    release(&singles);
    return result;
}

/* -- tokenizing and interning ------------------------------------------------------------
 *
 * A Vocabulary gives each distinct token the next id, in order of first sight, as the
 * plain-Python twin's dictionary does. Tokens are kept as UCS-4 code points in one arena and
 * found through an open-addressing table of their hashes. Texts given with a built-in
 * tokenizer are split here, on the str objects' own characters, with the GIL released; the
 * tokens of a user's tokenizer come as Python lists and are interned under the GIL. A
 * token that is not a str (a user's tokenizer may give any hashable) is numbered through a
 * dictionary, as the twin numbers it.
 */

typedef struct { Py_UCS4 *chars; Py_ssize_t size, capacity; } Chars;
typedef struct { i64 *items; Py_ssize_t size, capacity; } Ints;

/* Room for `needed` items of `item` bytes at `*items`, which hold `*capacity` (doubled as
 * often as needed, from `first`); 0 where memory ran out. */
static int reserve(void **items, Py_ssize_t *capacity, Py_ssize_t needed, size_t item,
                   Py_ssize_t first)
{
    if (needed <= *capacity)
        return 1;
    Py_ssize_t more = *capacity > 0 ? *capacity : first;
    while (more < needed)
        more *= 2;
    void *grown = realloc(*items, (size_t)more * item);
    if (grown == NULL)
        return 0;
    *items = grown;
    *capacity = more;
    return 1;
}

/* Room for `size` characters in total; 0 where memory ran out. */
static int reserve_chars(Chars *buffer, Py_ssize_t size)
{
    void *chars = buffer->chars;
    int done = reserve(&chars, &buffer->capacity, size, sizeof(Py_UCS4), 256);
    buffer->chars = chars;
    return done;
}

/* Room for `more` ints after those there are; 0 where memory ran out. */
static int reserve_ints(Ints *ints, Py_ssize_t more)
{
    void *items = ints->items;
    int done = reserve(&items, &ints->capacity, ints->size + more, sizeof(i64), 1024);
    ints->items = items;
    return done;
}

static int push_int(Ints *ints, i64 value)
{
    if (!reserve_ints(ints, 1))
        return 0;
    ints->items[ints->size++] = value;
    return 1;
}

/* The characters of a str of `kind` (1, 2 or 4 bytes each); each loop over them is written
 * once, as an inline function of the kind, and called with each kind as a constant. */
static ALWAYS_INLINE Py_UCS4 char_at(int kind, const void *data, Py_ssize_t k)
{
    if (kind == PyUnicode_1BYTE_KIND)
        return ((const Py_UCS1 *)data)[k];
    if (kind == PyUnicode_2BYTE_KIND)
        return ((const Py_UCS2 *)data)[k];
    return ((const Py_UCS4 *)data)[k];
}

static unsigned char SPACE[256]; /* Py_UNICODE_ISSPACE below 256 */

/* Py_UNICODE_ISSPACE, with a table where it holds most text: every other space is in
 * U+1680..U+3000 (tests/test_kernels.py checks every code point). */
static ALWAYS_INLINE int is_space(Py_UCS4 c)
{
    return c < 256 ? SPACE[c] : c >= 0x1680 && c <= 0x3000 && Py_UNICODE_ISSPACE(c);
}

/* - keys and the table -
 *
 * A token's key is its characters in the narrowest kind that holds them, so that its id
 * depends only on its code points, whatever the kind of the str it came from. A key of up
 * to 15 bytes is held whole in the slot's two words: its first 8 bytes in `word`, the rest
 * in `rest` with its size and kind in the top byte, so that nearly every token is found by
 * reading one slot, and a token's length decides no branch (a fifth of the tokens of
 * English are 8 to 15 bytes long). A longer key's bytes are in the arena, after a header of
 * the same size and kind; its `rest` is LONG and the header's offset. */

#define LONG ((uint64_t)1 << 63)
enum { SHORT_BYTES = 15 };

#if defined(_MSC_VER)
#define PREFETCH(address) ((void)(address))
#else
#define PREFETCH(address) __builtin_prefetch(address)
#endif

static ALWAYS_INLINE uint64_t load_64(const unsigned char *bytes)
{
    uint64_t word;
    memcpy(&word, bytes, 8);
    return word;
}

/* A word's hash: a multiplication's high half, which every bit of the word moves, folded into
 * its low half, where a table's slot is taken from. */
static ALWAYS_INLINE uint64_t mixed(uint64_t x)
{
    x *= 0x9e3779b97f4a7c15u;
    return x ^ (x >> 32);
}

/* The hash of a long key: its header, then its bytes 8 at a time (the last 8 overlapping). */
static uint64_t hash_chars(const unsigned char *bytes, Py_ssize_t size, uint64_t header)
{
    uint64_t hash = header * 0x9e3779b97f4a7c15u;
    Py_ssize_t k = 0;
    for (; k + 8 <= size; k += 8)
        hash = (hash ^ load_64(bytes + k)) * 0x9e3779b97f4a7c15u;
    if (k < size)
        hash = (hash ^ load_64(bytes + size - 8)) * 0x9e3779b97f4a7c15u;
    return mixed(hash);
}

/* A token's key (see above). A long key's bytes are the token's own, or, where its kind is
 * narrower than the str's, at `narrowed` in the table's room for them. */
typedef struct {
    uint64_t word, rest, hash, header; /* header: the size in bytes << 2 | log2 of its kind */
    const unsigned char *bytes;
    Py_ssize_t size, narrowed;
} Key;

/* A slot: the top half of its key's hash, its id + 1 (0 for an empty slot) and the words. */
typedef struct { uint32_t tag, id; uint64_t word, rest; } Slot;

typedef struct { unsigned char *bytes; Py_ssize_t size, capacity; } Bytes;

/* str tokens: an open-addressing table of their keys, the long keys in an arena. */
typedef struct {
    Slot *slots;
    i64 mask;       /* the number of slots minus 1 */
    i64 count;      /* tokens held */
    Bytes arena;    /* the long keys, each after its header, 8-aligned */
    Bytes narrowed; /* one text's long keys narrowed from their str's kind */
    const char *readable; /* the text's bytes may be read up to here, past its end */
    Key *pending;   /* one text's keys, looked up once all are hashed */
    Py_ssize_t pending_count, pending_capacity;
    int full;       /* a new token found no id (BLEUPRINT_MAX_VOCABULARY): why it failed */
} Table;

typedef struct {
    PyObject_HEAD
    Table table;      /* the str tokens */
    i64 size;         /* ids given: to str tokens and to others */
    PyObject *others; /* dict of the tokens that are not str -> id */
    int busy;         /* a call is using the tables (with the GIL released) */
} Vocabulary;

/* Room for `size` bytes in total; 0 where memory ran out. */
static int reserve_bytes(Bytes *buffer, Py_ssize_t size)
{
    void *bytes = buffer->bytes;
    int done = reserve(&bytes, &buffer->capacity, size, 1, 4096);
    buffer->bytes = bytes;
    return done;
}

/* The narrowest kind that holds the characters; read only until one needs the str's own
 * kind (the first, in most tokens of wide text). */
static ALWAYS_INLINE int narrowest(int kind, const void *chars, Py_ssize_t size)
{
    if (kind == PyUnicode_1BYTE_KIND)
        return kind;
    Py_UCS4 all = 0, wide = kind == PyUnicode_2BYTE_KIND ? 256 : 65536;
    for (Py_ssize_t k = 0; k < size && all < wide; k++)
        all |= char_at(kind, chars, k);
    return all < 256 ? PyUnicode_1BYTE_KIND : all < 65536 ? PyUnicode_2BYTE_KIND : kind;
}

/* The characters as a key's bytes, in kind `to` (which holds them all). */
static void narrowed_into(unsigned char *out, int kind, const void *chars, Py_ssize_t size,
                          int to)
{
    if (to == kind) {
        memcpy(out, chars, (size_t)(size * kind));
        return;
    }
    for (Py_ssize_t k = 0; k < size; k++) {
        Py_UCS4 c = char_at(kind, chars, k);
        if (to == PyUnicode_1BYTE_KIND)
            out[k] = (Py_UCS1)c;
        else
            memcpy(out + 2 * k, &(Py_UCS2){(Py_UCS2)c}, 2);
    }
}

/* A key's header: its size in bytes and the log2 of its kind `to`. */
static ALWAYS_INLINE uint64_t header_of(Py_ssize_t size, int to)
{
    return (uint64_t)size << 2 | (uint64_t)(to >> 1);
}

/* The hash of a key held in two words (see held_key). */
static ALWAYS_INLINE uint64_t held_hash(uint64_t word, uint64_t rest)
{
    return mixed(word ^ mixed(rest));
}

/* The key of `key->size` bytes of kind `to` held in two words: its first 8 bytes, and the rest
 * (zero past its end) under its header. */
static ALWAYS_INLINE void held_key(Key *key, int to, uint64_t word, uint64_t rest)
{
    key->header = header_of(key->size, to);
    key->word = word;
    key->rest = rest | key->header << 56;
    key->hash = held_hash(key->word, key->rest);
}

#if defined(__SSE2__) && defined(__x86_64__)
/* The 16 bytes at `bytes`, all but the first `n` (at most 16) zeroed. */
static ALWAYS_INLINE __m128i first_bytes(const void *bytes, Py_ssize_t n)
{
    static const unsigned char window[32] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                             0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    return _mm_and_si128(_mm_loadu_si128((const __m128i *)bytes),
                         _mm_loadu_si128((const __m128i *)(window + 16 - n)));
}

/* The key of a token of at most 15 characters of kind 1, or 8 of kind 2, whose 16 bytes from
 * `chars` on may be read: from one load, its kind (any high byte) and words too, where a
 * loop over its characters ended as randomly as the tokens' lengths. 0 for 8 characters that
 * need 2 bytes each (16 bytes: a long key). (x86: the characters' bytes in their order.) */
static ALWAYS_INLINE int loaded_key(int kind, const void *chars, Py_ssize_t size, Key *key)
{
    __m128i v = first_bytes(chars, size * kind), zero = _mm_setzero_si128();
    __m128i high = _mm_and_si128(v, _mm_set1_epi16((short)0xFF00));
    int to = kind == PyUnicode_1BYTE_KIND
                 ? 1
                 : 1 + (_mm_movemask_epi8(_mm_cmpeq_epi8(high, zero)) != 0xFFFF);
    __m128i bytes = to == kind ? v : _mm_packus_epi16(v, zero);
    key->size = size * to;
    if (key->size > SHORT_BYTES)
        return 0;
    held_key(key, to, (uint64_t)_mm_cvtsi128_si64(bytes),
             (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(bytes, bytes)));
    return 1;
}
#endif

/* The key of a token of `size` characters of `kind` at `chars`; 0 where memory ran out. */
static ALWAYS_INLINE int token_key(Table *t, int kind, const void *chars, Py_ssize_t size,
                                   Key *key)
{
    key->narrowed = -1;
    key->bytes = chars;
#if defined(__SSE2__) && defined(__x86_64__)
    int loads = kind == PyUnicode_1BYTE_KIND ? size <= SHORT_BYTES
                                             : kind == PyUnicode_2BYTE_KIND && size <= 8;
    if (loads && t->readable - (const char *)chars >= 16 && loaded_key(kind, chars, size, key))
        return 1;
#endif
    int to = narrowest(kind, chars, size);
    key->size = size * to;
    if (key->size <= SHORT_BYTES) {
        unsigned char held[16] = {0};
        narrowed_into(held, kind, chars, size, to);
        held_key(key, to, load_64(held), load_64(held + 8));
        return 1;
    }
    key->header = header_of(key->size, to);
    key->word = 0;
    key->rest = LONG;
    if (to != kind) {
        if (!reserve_bytes(&t->narrowed, t->narrowed.size + key->size))
            return 0;
        unsigned char *out = t->narrowed.bytes + t->narrowed.size;
        narrowed_into(out, kind, chars, size, to);
        key->narrowed = t->narrowed.size;
        key->bytes = out;
        t->narrowed.size += key->size;
    }
    key->hash = hash_chars(key->bytes, key->size, key->header);
    return 1;
}

/* An empty table; 0 where memory ran out. */
static int new_table(Table *t)
{
    t->mask = 1023;
    t->slots = calloc((size_t)t->mask + 1, sizeof(Slot));
    return t->slots != NULL;
}

static void free_table(Table *t)
{
    free(t->slots);
    free(t->arena.bytes);
    free(t->narrowed.bytes);
    free(t->pending);
}

/* The hash of the key a slot holds. */
static uint64_t slot_hash(const Table *t, const Slot *slot)
{
    if (!(slot->rest & LONG))
        return held_hash(slot->word, slot->rest);
    const unsigned char *entry = t->arena.bytes + (slot->rest & ~LONG);
    uint64_t header = load_64(entry);
    return hash_chars(entry + 8, (Py_ssize_t)(header >> 2), header);
}

/* Twice the slots, every token placed again; 0 where memory ran out. */
static int grow_slots(Table *t)
{
    i64 mask = 2 * t->mask + 1;
    Slot *slots = calloc((size_t)mask + 1, sizeof(Slot));
    if (slots == NULL)
        return 0;
    for (i64 old = 0; old <= t->mask; old++) {
        if (t->slots[old].id == 0)
            continue;
        i64 slot = (i64)(slot_hash(t, &t->slots[old]) & (uint64_t)mask);
        while (slots[slot].id != 0)
            slot = (slot + 1) & mask;
        slots[slot] = t->slots[old];
    }
    free(t->slots);
    t->slots = slots;
    t->mask = mask;
    return 1;
}

/* Whether a slot holds the key. */
static ALWAYS_INLINE int holds(const Table *t, const Slot *slot, const Key *key)
{
    if (key->rest != LONG) /* (both words at once: which differs is random) */
        return ((slot->word ^ key->word) | (slot->rest ^ key->rest)) == 0;
    if (slot->tag != (uint32_t)(key->hash >> 32) || !(slot->rest & LONG))
        return 0;
    const unsigned char *entry = t->arena.bytes + (slot->rest & ~LONG);
    return load_64(entry) == key->header && memcmp(entry + 8, key->bytes, (size_t)key->size) == 0;
}

/* The id of the key's token in the table; if it is new, it is added with id `next_id`. -1
 * where memory ran out (or ids ran past 32 bits). */
static ALWAYS_INLINE i64 table_id(Table *t, i64 next_id, const Key *key)
{
    i64 slot = (i64)(key->hash & (uint64_t)t->mask);
    for (; t->slots[slot].id != 0; slot = (slot + 1) & t->mask)
        if (holds(t, &t->slots[slot], key))
            return (i64)t->slots[slot].id - 1;
    if (next_id >= BLEUPRINT_MAX_VOCABULARY) {
        t->full = 1;
        return -1;
    }
    if (2 * (t->count + 1) > t->mask) { /* (grown first: a failure leaves the table whole) */
        if (!grow_slots(t))
            return -1;
        for (slot = (i64)(key->hash & (uint64_t)t->mask); t->slots[slot].id != 0;)
            slot = (slot + 1) & t->mask;
    }
    uint64_t rest = key->rest;
    if (rest == LONG) {
        Py_ssize_t at = t->arena.size, room = 8 + ((key->size + 7) & ~(Py_ssize_t)7);
        if (!reserve_bytes(&t->arena, at + room))
            return -1;
        memcpy(t->arena.bytes + at, &key->header, 8);
        memcpy(t->arena.bytes + at + 8, key->bytes, (size_t)key->size);
        t->arena.size += room;
        rest |= (uint64_t)at;
    }
    t->slots[slot] = (Slot){(uint32_t)(key->hash >> 32), (uint32_t)next_id + 1, key->word, rest};
    t->count++;
    return next_id;
}

/* The id of the key's token, a new one if it is new; -1 where memory ran out. */
static ALWAYS_INLINE i64 intern_key(Vocabulary *v, const Key *key)
{
    i64 id = table_id(&v->table, v->size, key);
    if (id == v->size)
        v->size++;
    return id;
}

/* The id of the str token of `size` characters of `kind` at `chars`, a new one if it is
 * new; -1 where memory ran out. */
static i64 intern_chars(Vocabulary *v, int kind, const void *chars, Py_ssize_t size)
{
    Key key;
    v->table.narrowed.size = 0;
    v->table.readable = (const char *)chars + size * kind;
    return token_key(&v->table, kind, chars, size, &key) ? intern_key(v, &key) : -1;
}

/* Why interning into `v` failed (see Table.full), the reason then forgotten. */
static Failure interning_failure(Vocabulary *v)
{
    Failure failure = v->table.full ? VOCABULARY_FULL : OUT_OF_MEMORY;
    v->table.full = 0;
    return failure;
}

/* The id of a token that is not a str (numbered by `others`); -1 with an exception. */
static i64 intern_other(Vocabulary *v, PyObject *token)
{
    PyObject *known = PyDict_GetItemWithError(v->others, token);
    if (known != NULL)
        return PyLong_AsLongLong(known);
    if (PyErr_Occurred())
        return -1;
    if (v->size >= BLEUPRINT_MAX_VOCABULARY) {
        raise_failure(VOCABULARY_FULL);
        return -1;
    }
    PyObject *number = PyLong_FromLongLong(v->size);
    if (number == NULL || PyDict_SetItem(v->others, token, number) < 0) {
        Py_XDECREF(number);
        return -1;
    }
    Py_DECREF(number);
    return v->size++;
}

/* A str's characters as UCS-4 in `buffer` (which it replaces). */
static int load(Chars *buffer, int kind, const void *data, Py_ssize_t size)
{
    if (!reserve_chars(buffer, size))
        return 0;
    for (Py_ssize_t k = 0; k < size; k++)
        buffer->chars[k] = char_at(kind, data, k);
    buffer->size = size;
    return 1;
}

/* - the built-in tokenizers, on the str's own characters -
 *
 * Each gives its tokens to a Take, as where they are in the text: every token of these
 * tokenizers is a run of the text's characters. Where 13a's escapes change the text, it is
 * rewritten first, as UCS-4, in steps: each step reads `text` and writes `other`, then the
 * two are swapped, so `text` always holds the text so far. 13a's steps are sacreBLEU's, one
 * for one: a regular expression replaced by re.sub, which scans left to right and goes on
 * after each match, is the same scan here. */

/* Where a tokenizer gives each token (`size` characters of `kind` at `chars`); 0 where it
 * failed (memory ran out). */
typedef int (*Take)(void *context, int kind, const void *chars, Py_ssize_t size);
/* What forgets the tokens given of the text being split (13a's one pass gives them as it
 * goes, and may find that the text is not for it); 0 where it failed. */
typedef int (*Forget)(void *context);

typedef struct {
    Chars text, other;
} Texts;

static void free_texts(Texts *t)
{
    free(t->text.chars);
    free(t->other.chars);
}

static void swap(Texts *t)
{
    Chars kept = t->text;
    t->text = t->other;
    t->other = kept;
}

static int is_digit(Py_UCS4 c) { return c >= '0' && c <= '9'; }
static int is_mark(Py_UCS4 c) { return c == '.' || c == ','; }

/* str.replace(old, new), `new` being one character or none (0). */
static int replaced(Texts *t, const char *old, Py_UCS4 new)
{
    Py_ssize_t size = (Py_ssize_t)strlen(old), written = 0;
    if (!reserve_chars(&t->other, t->text.size))
        return 0;
    const Py_UCS4 *in = t->text.chars;
    Py_UCS4 *out = t->other.chars;
    for (Py_ssize_t k = 0; k < t->text.size;) {
        Py_ssize_t same = 0;
        while (same < size && k + same < t->text.size && in[k + same] == (Py_UCS4)old[same])
            same++;
        if (same == size) {
            if (new != 0)
                out[written++] = new;
            k += size;
        } else {
            out[written++] = in[k++];
        }
    }
    t->other.size = written;
    swap(t);
    return 1;
}

/* The length of a text without its trailing whitespace (str.rstrip()), and whether it has
 * a character one of 13a's escapes replaces: <, a line break or & (removing <skipped>
 * leaves none to find). */
static ALWAYS_INLINE Py_ssize_t stripped(int kind, const void *data, Py_ssize_t size,
                                         int *escaped)
{
    while (size > 0 && is_space(char_at(kind, data, size - 1)))
        size--;
    if (kind == PyUnicode_1BYTE_KIND) {
        *escaped = memchr(data, '<', (size_t)size) || memchr(data, '\n', (size_t)size) ||
                   memchr(data, '&', (size_t)size);
        return size;
    }
    int found = 0;
    for (Py_ssize_t k = 0; k < size; k++) {
        Py_UCS4 c = char_at(kind, data, k);
        found |= c == '<' || c == '\n' || c == '&';
    }
    *escaped = found;
    return size;
}

/* mteval-v13a's escapes as sacreBLEU applies them (bleuprint.tokenizers.Mteval13a), on the
 * stripped text in `t->text`: <skipped>, hyphenated line breaks, line breaks, the escapes in
 * mteval's order. Each step whose character the text lacks would change nothing: it is
 * skipped. */
static int unescaped_13a(Texts *t)
{
    int angle = 0, line_break = 0, ampersand = 0;
    for (Py_ssize_t k = 0; k < t->text.size; k++) {
        angle |= t->text.chars[k] == '<';
        line_break |= t->text.chars[k] == '\n';
        ampersand |= t->text.chars[k] == '&';
    }
    if (angle && !replaced(t, "<skipped>", 0))
        return 0;
    if (line_break && (!replaced(t, "-\n", 0) || !replaced(t, "\n", ' ')))
        return 0;
    return !ampersand || (replaced(t, "&quot;", '"') && replaced(t, "&amp;", '&') &&
                          replaced(t, "&lt;", '<') && replaced(t, "&gt;", '>'));
}

/* - 13a's rules, streamed -
 *
 * sacreBLEU then pads the text with a space at each end and applies four regular
 * expressions, one after the other, each by re.sub, and splits the result on whitespace:
 *
 *   1. ([{-~[-` -&(-+:-@/]) -> " \1 "  (the symbols: ASCII punctuation but ' , - .)
 *   2. ([^0-9])([.,])      -> "\1 \2 "
 *   3. ([.,])([^0-9])      -> " \1 \2"
 *   4. ([0-9])(-)          -> "\1 \2 "
 *
 * re.sub scans left to right: where a pair matches, it writes the replacement and goes on
 * after the pair; where none does, it writes the first character and goes on at the second.
 * Each rule below is that scan, holding back one character (the first of the next pair), and
 * each passes what it writes to the next rule, character by character: the rules are applied
 * in order, exactly as four passes would, but the text is read once. A character goes with
 * where it is in the text (`at`); the rules only add spaces, so a token is a run of the
 * text. (A pair consumed by a rule is not looked at again by it: "a.,5" gives "a", ".",
 * ",5", as sacreBLEU does.) */

typedef struct {
    Py_UCS4 held[3];     /* the character rules 2, 3 and 4 hold back ... */
    Py_ssize_t held_at[3];
    int holding[3];      /* ... where they hold one */
    int kind;            /* the text's */
    const char *data;
    Py_ssize_t start, size; /* the token being read */
    Take take;
    void *context;
    int failed; /* `take` failed */
} Rules;

/* The splitting on whitespace, at the end of the rules. */
static ALWAYS_INLINE void split_13a(Rules *r, Py_UCS4 c, Py_ssize_t at)
{
    if (!is_space(c)) {
        if (r->size++ == 0)
            r->start = at;
        return;
    }
    if (r->size > 0 && !r->failed)
        r->failed = !r->take(r->context, r->kind, r->data + r->start * r->kind, r->size);
    r->size = 0;
}

/* Whether rule 2, 3 or 4 (`rule`) matches the pair of characters. */
static int matches(int rule, Py_UCS4 first, Py_UCS4 second)
{
    if (rule == 2)
        return !is_digit(first) && is_mark(second);
    if (rule == 3)
        return is_mark(first) && !is_digit(second);
    return is_digit(first) && second == '-';
}

/* Where a rule writes: the next rule, or after rule 4 the splitting (`end`: the text ends). */
typedef void (*Next)(Rules *r, Py_UCS4 c, Py_ssize_t at, int end);

static void split_or_end(Rules *r, Py_UCS4 c, Py_ssize_t at, int end)
{
    split_13a(r, end ? ' ' : c, at); /* (a space ends the last token) */
}

/* Rule 2, 3 or 4 (`rule`) takes `c`, the next character the rule before it writes, or the
 * end of the text (`end`), and writes to `next`. Written once, and inlined into each rule
 * with its own `next` (one function for the three took 11% more instructions). Added
 * spaces go with no place in the text (0). */
static ALWAYS_INLINE void pair_rule(Rules *r, int rule, Py_UCS4 c, Py_ssize_t at, int end,
                                    Next next)
{
    int h = rule - 2;
    if (r->holding[h]) {
        Py_UCS4 first = r->held[h];
        Py_ssize_t first_at = r->held_at[h];
        r->holding[h] = 0;
        if (!end && matches(rule, first, c)) {
            if (rule == 3) { /* " \1 \2" */
                next(r, ' ', 0, 0), next(r, first, first_at, 0), next(r, ' ', 0, 0);
                next(r, c, at, 0);
            } else { /* "\1 \2 " */
                next(r, first, first_at, 0), next(r, ' ', 0, 0), next(r, c, at, 0);
                next(r, ' ', 0, 0);
            }
            return;
        }
        next(r, first, first_at, 0);
    }
    if (end)
        next(r, 0, 0, 1);
    else
        r->held[h] = c, r->held_at[h] = at, r->holding[h] = 1;
}

static void rule_4(Rules *r, Py_UCS4 c, Py_ssize_t at, int end)
{
    pair_rule(r, 4, c, at, end, split_or_end);
}
static void rule_3(Rules *r, Py_UCS4 c, Py_ssize_t at, int end)
{
    pair_rule(r, 3, c, at, end, rule_4);
}
static void rule_2(Rules *r, Py_UCS4 c, Py_ssize_t at, int end)
{
    pair_rule(r, 2, c, at, end, rule_3);
}

static unsigned char SYMBOLS[128]; /* 13a's ASCII punctuation and symbols but ' , - . */
static unsigned char LOOKED_AT[128]; /* the symbols, the marks, the digits and the dash */

static void rule_1(Rules *r, Py_UCS4 c, Py_ssize_t at)
{
    if (c < 128 && SYMBOLS[c]) {
        rule_2(r, ' ', 0, 0);
        rule_2(r, c, at, 0);
        rule_2(r, ' ', 0, 0);
    } else {
        rule_2(r, c, at, 0);
    }
}

/* Whether no rule looks at the character: not a symbol, a mark, a digit or a dash. */
static ALWAYS_INLINE int inert(Py_UCS4 c) { return c >= 128 || !LOOKED_AT[c]; }

/* A run of inert characters from `k` on, with at least 3 of them, taken at once: in it no
 * rule can match (rule 2's pairs end, rule 3's begin and rule 4's end with an inert
 * character), nor with what rules 2 and 3 hold where that is inert too (what rule 4 holds
 * may be anything: its pair ends inert). So each rule passes it on as it is, and the rules
 * are left holding its last 3 characters, as one character after the other would leave
 * them. Returns the end of the run, or `k` where none was taken. */
static ALWAYS_INLINE Py_ssize_t inert_run(Rules *r, int kind, Py_ssize_t k, Py_ssize_t size)
{
    if ((r->holding[0] && !inert(r->held[0])) || (r->holding[1] && !inert(r->held[1])))
        return k;
    Py_ssize_t end = k;
    while (end < size && inert(char_at(kind, r->data, end)))
        end++;
    if (end - k < 3)
        return k;
    for (int rule = 2; rule >= 0; rule--) /* what the rules hold, the earliest first */
        if (r->holding[rule])
            split_13a(r, r->held[rule], r->held_at[rule]);
    for (Py_ssize_t j = k; j < end - 3;) { /* split_13a on each character, a run at a time */
        if (is_space(char_at(kind, r->data, j))) {
            split_13a(r, ' ', j++);
            continue;
        }
        Py_ssize_t from = j;
        while (j < end - 3 && !is_space(char_at(kind, r->data, j)))
            j++;
        if (r->size == 0)
            r->start = from;
        r->size += j - from;
    }
    for (int rule = 0; rule < 3; rule++) {
        r->held[rule] = char_at(kind, r->data, end - 1 - rule);
        r->held_at[rule] = end - 1 - rule;
        r->holding[rule] = 1;
    }
    return end;
}

/* The padded text through the rules, its tokens given to `r->take`. */
static ALWAYS_INLINE void rules_13a(Rules *r, int kind, Py_ssize_t size)
{
    rule_1(r, ' ', 0);
    for (Py_ssize_t k = 0; k < size;) {
        Py_ssize_t end = inert_run(r, kind, k, size);
        if (end > k)
            k = end;
        else
            rule_1(r, char_at(kind, r->data, k), k), k++;
    }
    rule_1(r, ' ', 0);
    rule_2(r, 0, 0, 1);
}

/* - 13a where no two marks meet -
 *
 * Where no mark (. or ,) is next to another, no two matches of a rule overlap, and where the
 * rules put spaces depends only on each character's neighbours in the text: a symbol is a
 * token of its own (rule 1); so is a mark, unless it is between two digits (rule 2 parts it
 * from a non-digit before it, rule 3 from a non-digit after it; a symbol, a space and either
 * end of the text are non-digits); so is a dash after a digit (rule 4). Every other character
 * is parted only by whitespace. Most text is read so, in one pass over a table of classes,
 * where the streamed rules above call through four functions a character. The characters
 * that start an escape (ESCAPE: < & and the line break) leave the text to those rules. */

enum { PLAIN, DIGIT, DASH, MARK, SYMBOL, BLANK, ESCAPE };
static unsigned char CLASSES[256]; /* of the characters below 256; above, PLAIN or BLANK */

static ALWAYS_INLINE int class_13a(int kind, const void *data, Py_ssize_t k)
{
    Py_UCS4 c = char_at(kind, data, k);
    return c < 256 ? CLASSES[c] : is_space(c) ? BLANK : PLAIN;
}

/* Whether the character at k, of class `now` after one of class `before`, is a token of its
 * own; -1 for a mark next to a mark, or an escape's character. */
static ALWAYS_INLINE int alone_13a(int kind, const void *data, Py_ssize_t k, Py_ssize_t size,
                                   int now, int before)
{
    if (now == ESCAPE)
        return -1;
    if (now == MARK) {
        int after = k + 1 < size ? class_13a(kind, data, k + 1) : BLANK;
        return after == MARK ? -1 : before != DIGIT || after != DIGIT;
    }
    return now == SYMBOL || (now == DASH && before == DIGIT);
}

#if defined(__SSE2__)
/* Of 16 bytes of text of `kind` (1 or 2), a mask of the bytes of its letters: ASCII letters,
 * and in 2-byte text every character from U+0100 on but U+1680..U+3000 (where the spaces
 * above 255 are). Each range is compared as signed numbers, shifted to start at the least
 * (SSE2 has no unsigned compare). */
static ALWAYS_INLINE unsigned letter_bytes(int kind, __m128i c)
{
    if (kind == PyUnicode_1BYTE_KIND) {
        __m128i folded = _mm_or_si128(c, _mm_set1_epi8(0x20)); /* (A-Z to a-z) */
        __m128i from_a = _mm_sub_epi8(folded, _mm_set1_epi8((char)('a' + 0x80)));
        return (unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(from_a, _mm_set1_epi8(-0x80 + 26)));
    }
    __m128i folded = _mm_or_si128(c, _mm_set1_epi16(0x20));
    __m128i from_a = _mm_sub_epi16(folded, _mm_set1_epi16((short)('a' + 0x8000)));
    __m128i ascii = _mm_cmplt_epi16(from_a, _mm_set1_epi16(-0x8000 + 26));
    __m128i u = _mm_xor_si128(c, _mm_set1_epi16((short)0x8000)); /* (unsigned order) */
    __m128i low = _mm_and_si128(_mm_cmpgt_epi16(u, _mm_set1_epi16((short)0x80FF)),
                                _mm_cmplt_epi16(u, _mm_set1_epi16((short)0x9680)));
    __m128i high = _mm_cmpgt_epi16(u, _mm_set1_epi16((short)0xB000));
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(ascii, _mm_or_si128(low, high)));
}
#endif

/* How many characters from `k` on are letters (see letter_bytes), found 16 bytes at a time:
 * most of a word's characters are, and no rule looks at them. Whole blocks of 16 bytes only,
 * and none without SSE2 (x86-64 always has it): what it leaves is read a character at a
 * time, as all of it was. */
static ALWAYS_INLINE Py_ssize_t letters_from(int kind, const void *data, Py_ssize_t k,
                                             Py_ssize_t size)
{
    Py_ssize_t from = k;
#if defined(__SSE2__)
    if (kind == PyUnicode_4BYTE_KIND)
        return 0;
    for (; k + 16 / kind <= size; k += 16 / kind) {
        __m128i block = _mm_loadu_si128((const __m128i *)((const char *)data + k * kind));
        unsigned others = ~letter_bytes(kind, block) & 0xFFFF;
        if (others != 0)
            return k + __builtin_ctz(others) / kind - from;
    }
#else
    (void)kind, (void)data, (void)size;
#endif
    return k - from;
}

/* The tokens of a text, each given to `take` as it is found; 1, or -1 where two marks meet
 * or an escape may start (the tokens given so far are then not 13a's), 0 where `take`
 * failed. */
static ALWAYS_INLINE int one_pass_13a(int kind, const void *data, Py_ssize_t size, Take take,
                                      void *context)
{
    const char *chars = data;
    Py_ssize_t k = 0;
    int before = BLANK;
    while (k < size) {
        int now = class_13a(kind, data, k);
        int alone = now == BLANK ? 0 : alone_13a(kind, data, k, size, now, before);
        if (alone < 0)
            return -1;
        if (now == BLANK || alone) {
            if (alone && !take(context, kind, chars + k * kind, 1))
                return 0;
            before = now;
            k++;
            continue;
        }
        Py_ssize_t start = k, letters = letters_from(kind, data, k + 1, size);
        if (letters > 0)
            k += letters, now = PLAIN;
        do { /* (a word: what joins it is read again only where it is not plain) */
            before = now;
            if (++k == size)
                break;
            now = class_13a(kind, data, k);
            if (now <= DIGIT)
                continue;
            alone = now == BLANK ? 1 : alone_13a(kind, data, k, size, now, before);
            if (alone < 0)
                return -1;
        } while (!alone);
        if (!take(context, kind, chars + start * kind, k - start))
            return 0;
        if (now == BLANK) /* (the space that ended the word, read already) */
            before = BLANK, k++;
    }
    return 1;
}

/* The tokens of 13a, each given to `take`: in one pass where no two marks meet and there is
 * no escape (the trailing whitespace sacreBLEU strips makes no token); else, what that pass
 * gave forgotten, the escapes (on a copy, where there are any), then the streamed rules. 0
 * where memory ran out (or `take` or `forget` failed). */
static ALWAYS_INLINE int tokens_13a(Texts *t, int kind, const void *data, Py_ssize_t size,
                                    Take take, Forget forget, void *context)
{
    int done = one_pass_13a(kind, data, size, take, context);
    if (done >= 0)
        return done;
    if (!forget(context))
        return 0;
    int escaped;
    size = stripped(kind, data, size, &escaped);
    Rules r = {{0}, {0}, {0}, kind, data, 0, 0, take, context, 0};
    if (!escaped) {
        rules_13a(&r, kind, size);
    } else {
        if (!load(&t->text, kind, data, size) || !unescaped_13a(t))
            return 0;
        r.kind = PyUnicode_4BYTE_KIND;
        r.data = (const char *)t->text.chars;
        rules_13a(&r, PyUnicode_4BYTE_KIND, t->text.size);
    }
    return !r.failed;
}

enum { WHITESPACE, MTEVAL_13A, CHARACTERS, TOKENIZERS };
static const char *TOKENIZER_NAMES[TOKENIZERS] = {"whitespace", "13a", "char"};

/* The tokens of a text (a str's `kind`, `data` and `size`), each given to `take`, with `t` as
 * scratch room; 0 where memory ran out (or `take` failed). Every tokenizer splits on what
 * str.split() splits on. */
static ALWAYS_INLINE int split_kind(Texts *t, int tokenizer, int kind, const void *data,
                                    Py_ssize_t size, Take take, Forget forget, void *context)
{
    if (tokenizer == MTEVAL_13A)
        return tokens_13a(t, kind, data, size, take, forget, context);
    Py_ssize_t k = 0;
    while (k < size) {
        while (k < size && is_space(char_at(kind, data, k)))
            k++;
        if (k == size)
            break;
        Py_ssize_t start = k;
        if (tokenizer == CHARACTERS)
            k++;
        else
            while (k < size && !is_space(char_at(kind, data, k)))
                k++;
        if (!take(context, kind, (const char *)data + start * kind, k - start))
            return 0;
    }
    return 1;
}

/* (Inlined, so that each caller's `take` is inlined into the loops.) */
static ALWAYS_INLINE int split(Texts *t, int tokenizer, int kind, const void *data,
                               Py_ssize_t size, Take take, Forget forget, void *context)
{
    if (kind == PyUnicode_1BYTE_KIND)
        return split_kind(t, tokenizer, PyUnicode_1BYTE_KIND, data, size, take, forget, context);
    if (kind == PyUnicode_2BYTE_KIND)
        return split_kind(t, tokenizer, PyUnicode_2BYTE_KIND, data, size, take, forget, context);
    return split_kind(t, tokenizer, PyUnicode_4BYTE_KIND, data, size, take, forget, context);
}

/* Texts taken from Python (with their characters held, so the GIL may be released). */
typedef struct {
    PyObject *tuple;
    Py_ssize_t count;
    int *kinds;
    const void **data;
    Py_ssize_t *sizes;
} Given;

static void let_go(Given *given)
{
    Py_CLEAR(given->tuple);
    PyMem_Free(given->kinds);
    PyMem_Free((void *)given->data);
    PyMem_Free(given->sizes);
    given->kinds = NULL;
    given->data = NULL;
    given->sizes = NULL;
}

static int take_texts(PyObject *texts, Given *given)
{
    given->tuple = PySequence_Tuple(texts);
    if (given->tuple == NULL)
        return -1;
    given->count = PyTuple_GET_SIZE(given->tuple);
    Py_ssize_t room = given->count > 0 ? given->count : 1;
    given->kinds = PyMem_Malloc((size_t)room * sizeof(int));
    given->data = PyMem_Malloc((size_t)room * sizeof(void *));
    given->sizes = PyMem_Malloc((size_t)room * sizeof(Py_ssize_t));
    if (given->kinds == NULL || given->data == NULL || given->sizes == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = 0; k < given->count; k++) {
        PyObject *text = PyTuple_GET_ITEM(given->tuple, k);
        if (!PyUnicode_Check(text)) {
            PyErr_Format(PyExc_TypeError, "text %zd is a %.80s, not a str", k,
                         Py_TYPE(text)->tp_name);
            return -1;
        }
#if PY_VERSION_HEX < 0x030C0000
        if (PyUnicode_READY(text) < 0)
            return -1;
#endif
        given->kinds[k] = PyUnicode_KIND(text);
        given->data[k] = PyUnicode_DATA(text);
        given->sizes[k] = PyUnicode_GET_LENGTH(text);
    }
    return 0;
}

static int tokenizer_number(PyObject *name)
{
    for (int k = 0; k < TOKENIZERS; k++)
        if (PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, TOKENIZER_NAMES[k]) == 0)
            return k;
    PyErr_Format(PyExc_ValueError,
                 "tokenizer must be one of 'whitespace', '13a', 'char' or None, got %R", name);
    return -1;
}

/* Claim the tables for one call; -1 with an error if another thread is using them. */
static int claim(Vocabulary *v)
{
    if (v->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "a Vocabulary is used by one thread at a time (another is interning)");
        return -1;
    }
    v->busy = 1;
    return 0;
}

/* A token's key, kept for intern_text to look up, its slot fetched meanwhile. */
static ALWAYS_INLINE int take_interned(void *context, int kind, const void *chars,
                                       Py_ssize_t size)
{
    Table *t = &((Vocabulary *)context)->table;
    if (t->pending_count == t->pending_capacity) {
        void *pending = t->pending;
        if (!reserve(&pending, &t->pending_capacity, t->pending_count + 1, sizeof(Key), 64))
            return 0;
        t->pending = pending;
    }
    Key *key = &t->pending[t->pending_count];
    if (!token_key(t, kind, chars, size, key))
        return 0;
    PREFETCH(&t->slots[key->hash & (uint64_t)t->mask]);
    t->pending_count++;
    return 1;
}

static int forget_interned(void *context)
{
    Table *t = &((Vocabulary *)context)->table;
    t->pending_count = t->narrowed.size = 0;
    return 1;
}

/* The ids and lengths as two new numpy arrays, in a tuple. */
static PyObject *id_arrays(const Ints *ids, const Ints *lengths)
{
    Array arrays[2] = {{0}};
    PyObject *result = NULL;
    const Ints *sources[2] = {ids, lengths};
    for (int k = 0; k < 2; k++) {
        if (new_zeros(sources[k]->size, -1, "int64", &arrays[k]) < 0)
            goto done;
        if (sources[k]->size > 0)
            memcpy(arrays[k].view.buf, sources[k]->items, (size_t)sources[k]->size * sizeof(i64));
    }
    result = PyTuple_Pack(2, arrays[0].array, arrays[1].array);
done:
    release(&arrays[0]);
    release(&arrays[1]);
    return result;
}

/* Whether every item of the list is a str (whose id is found without calling Python code). */
static int all_str(PyObject *list)
{
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(list); k++)
        if (!PyUnicode_Check(PyList_GET_ITEM(list, k)))
            return 0;
    return 1;
}

static PyObject *vocabulary_intern_tokens(Vocabulary *v, PyObject *streams)
{
    PyObject *iterator = PyObject_GetIter(streams);
    if (iterator == NULL || claim(v) < 0) {
        Py_XDECREF(iterator);
        return NULL;
    }
    Ints ids = {0}, lengths = {0};
    PyObject *stream, *result = NULL;
    int failed = 0;
    while (!failed && (stream = PyIter_Next(iterator)) != NULL) {
        PyObject *tokens = PySequence_Fast(stream, "each stream must be a sequence of tokens");
        Py_DECREF(stream);
        if (tokens == NULL) {
            failed = 1;
            break;
        }
        /* A token that is not a str is numbered through its __hash__ and __eq__: Python code,
         * which may change the list being read (and free its items). Read a tuple of them. */
        if (PyList_Check(tokens) && !all_str(tokens)) {
            PyObject *owned = PyList_AsTuple(tokens);
            Py_DECREF(tokens);
            if (owned == NULL) {
                failed = 1;
                break;
            }
            tokens = owned;
        }
        Py_ssize_t count = PySequence_Fast_GET_SIZE(tokens);
        PyObject **items = PySequence_Fast_ITEMS(tokens);
        for (Py_ssize_t k = 0; k < count && !failed; k++) {
            PyObject *token = items[k];
            i64 id;
            if (PyUnicode_Check(token)) {
#if PY_VERSION_HEX < 0x030C0000
                if (PyUnicode_READY(token) < 0) {
                    failed = 1;
                    break;
                }
#endif
                id = intern_chars(v, PyUnicode_KIND(token), PyUnicode_DATA(token),
                                  PyUnicode_GET_LENGTH(token));
                if (id < 0)
                    raise_failure(interning_failure(v));
            } else {
                id = intern_other(v, token);
            }
            if (id < 0 || !push_int(&ids, id)) {
                if (!PyErr_Occurred())
                    PyErr_NoMemory();
                failed = 1;
            }
        }
        Py_DECREF(tokens);
        if (!failed && !push_int(&lengths, count)) {
            PyErr_NoMemory();
            failed = 1;
        }
    }
    Py_DECREF(iterator);
    v->busy = 0;
    if (!failed && !PyErr_Occurred())
        result = id_arrays(&ids, &lengths);
    free(ids.items);
    free(lengths.items);
    return result;
}

/* The ids of one text's tokens (a str's `kind`, `data` and `size`; its bytes may be read up
 * to `readable`, past its end), pushed to `ids`, with `t` as scratch room; 0 where memory ran
 * out. Needs no GIL. */
static int intern_text(Vocabulary *v, Texts *t, int kind, const void *data, Py_ssize_t size,
                       const char *readable, int tokenizer, Ints *ids)
{
    Table *table = &v->table;
    table->pending_count = table->narrowed.size = 0;
    table->readable = readable;
    if (!split(t, tokenizer, kind, data, size, take_interned, forget_interned, v) ||
        !reserve_ints(ids, table->pending_count))
        return 0;
    /* (locals: the compiler would read the fields again after each store) */
    i64 *out = ids->items + ids->size;
    Key *pending = table->pending;
    Py_ssize_t count = table->pending_count;
    for (Py_ssize_t k = 0; k < count; k++) {
        Key *key = &pending[k];
        if (key->narrowed >= 0)
            key->bytes = table->narrowed.bytes + key->narrowed; /* (it may have moved) */
        i64 id = intern_key(v, key);
        if (id < 0)
            return 0;
        out[k] = id;
    }
    ids->size += count;
    return 1;
}

/* Intern the given texts into `ids` and `lengths` (each text's number of tokens); 0 where
 * memory ran out. Called with the GIL held: it releases it. */
static int intern_given(Vocabulary *v, const Given *given, int tokenizer, Ints *ids,
                        Ints *lengths)
{
    Texts t = {{0}, {0}};
    int done = 1;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < given->count && done; k++) {
        Py_ssize_t before = ids->size;
        const char *data = given->data[k];
        done = intern_text(v, &t, given->kinds[k], data, given->sizes[k],
                           data + given->sizes[k] * given->kinds[k], tokenizer, ids) &&
               push_int(lengths, ids->size - before);
    }
    Py_END_ALLOW_THREADS
    free_texts(&t);
    return done;
}

static PyObject *vocabulary_intern_texts(Vocabulary *v, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"texts", "tokenizer", "tokenize", NULL};
    PyObject *texts, *name, *tokenize;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO:intern_texts", keywords, &texts, &name,
                                     &tokenize))
        return NULL;
    if (name == Py_None) {
        PyObject *streams = PyObject_CallOneArg(tokenize, texts);
        if (streams == NULL)
            return NULL;
        PyObject *result = vocabulary_intern_tokens(v, streams);
        Py_DECREF(streams);
        return result;
    }
    int tokenizer = tokenizer_number(name);
    Given given = {0};
    if (tokenizer < 0 || take_texts(texts, &given) < 0 || claim(v) < 0) {
        let_go(&given);
        return NULL;
    }
    Ints ids = {0}, lengths = {0};
    int done = intern_given(v, &given, tokenizer, &ids, &lengths);
    v->busy = 0;
    PyObject *result = done ? id_arrays(&ids, &lengths) : raise_failure(interning_failure(v));
    free(ids.items);
    free(lengths.items);
    let_go(&given);
    return result;
}

static Py_ssize_t vocabulary_length(Vocabulary *v) { return (Py_ssize_t)v->size; }

static PyObject *vocabulary_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    if (!PyArg_ParseTuple(args, ":Vocabulary") || (kwargs != NULL && PyDict_GET_SIZE(kwargs))) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "Vocabulary() takes no arguments");
        return NULL;
    }
    Vocabulary *v = (Vocabulary *)type->tp_alloc(type, 0);
    if (v == NULL)
        return NULL;
    int made = new_table(&v->table);
    v->others = PyDict_New();
    if (!made || v->others == NULL) {
        Py_DECREF(v);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    return (PyObject *)v;
}

static void vocabulary_dealloc(Vocabulary *v)
{
    free_table(&v->table);
    Py_XDECREF(v->others);
    Py_TYPE(v)->tp_free((PyObject *)v);
}

static PyMethodDef vocabulary_methods[] = {
    {"intern_texts", (PyCFunction)(void (*)(void))vocabulary_intern_texts,
     METH_VARARGS | METH_KEYWORDS,
     "The token ids of the texts, tokenized by the named built-in tokenizer (or by "
     "tokenize(texts) where it is None), and the number of tokens of each."},
    {"intern_tokens", (PyCFunction)vocabulary_intern_tokens, METH_O,
     "The token ids of the token lists, one after the other, and the length of each."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods vocabulary_sequence = {.sq_length = (lenfunc)vocabulary_length};

static PyTypeObject VocabularyType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bleuprint._kernels._compiled.Vocabulary",
    .tp_doc = "Token ids, given in order of first sight (see bleuprint._kernels._python).",
    .tp_basicsize = sizeof(Vocabulary),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = vocabulary_new,
    .tp_dealloc = (destructor)vocabulary_dealloc,
    .tp_methods = vocabulary_methods,
    .tp_as_sequence = &vocabulary_sequence,
};

/* The built-in tokenizer's tokens of each text, as lists of str. */
typedef struct { PyObject *tokens; } Listing;

static int take_listed(void *context, int kind, const void *chars, Py_ssize_t size)
{
    Listing *listing = context;
    PyObject *token = PyUnicode_FromKindAndData(kind, chars, size);
    if (token == NULL)
        return 0;
    int appended = PyList_Append(listing->tokens, token) == 0;
    Py_DECREF(token);
    return appended;
}

static int forget_listed(void *context)
{
    Listing *listing = context;
    return PyList_SetSlice(listing->tokens, 0, PyList_GET_SIZE(listing->tokens), NULL) == 0;
}

static PyObject *py_tokenize_texts(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"texts", "tokenizer", NULL};
    PyObject *texts, *name;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO:tokenize_texts", keywords, &texts, &name))
        return NULL;
    int tokenizer = tokenizer_number(name);
    Given given = {0};
    PyObject *result = NULL;
    if (tokenizer < 0 || take_texts(texts, &given) < 0 || (result = PyList_New(given.count)) == NULL) {
        let_go(&given);
        return NULL;
    }
    Texts t = {{0}, {0}};
    for (Py_ssize_t k = 0; k < given.count; k++) {
        Listing listing = {PyList_New(0)};
        if (listing.tokens == NULL)
            goto failed;
        PyList_SET_ITEM(result, k, listing.tokens);
        if (!split(&t, tokenizer, given.kinds[k], given.data[k], given.sizes[k], take_listed,
                   forget_listed, &listing)) {
            if (!PyErr_Occurred())
                PyErr_NoMemory();
            goto failed;
        }
    }
    goto done;
failed:
    Py_CLEAR(result);
done:
    free_texts(&t);
    let_go(&given);
    return result;
}

/* -- token ids given as Python ints ------------------------------------------------------
 *
 * flat_ids reads sequences of ids (lists or tuples of Python ints) into one int64 array of
 * all the ids, one sequence after the other, and one of their lengths, in one pass over the
 * objects, where numpy would first guess every item's type and shape. Anything else (a
 * bool, a numpy integer, an int beyond 64 bits, a nested list, a str) gives None: the
 * caller then reads the sequences one by one, which accepts what numpy accepts and names
 * what is wrong and where.
 */

/* The items of a list or tuple (exactly those types) in `items`, and 1; 0 for another type.
 * (An empty list's items may be NULL: not the answer.) */
static int sequence_items(PyObject *object, PyObject ***items, Py_ssize_t *size)
{
    if (PyList_CheckExact(object)) {
        *size = PyList_GET_SIZE(object);
        *items = ((PyListObject *)object)->ob_item;
        return 1;
    }
    if (PyTuple_CheckExact(object)) {
        *size = PyTuple_GET_SIZE(object);
        *items = ((PyTupleObject *)object)->ob_item;
        return 1;
    }
    return 0;
}

/* An int's value where CPython keeps it in one digit (as nearly every token id), read in
 * place rather than through a call per item; 0 for any other int. */
static ALWAYS_INLINE int one_digit(PyObject *item, i64 *value)
{
#if defined(PYPY_VERSION)
    (void)item, (void)value;
    return 0;
#elif PY_VERSION_HEX >= 0x030C0000
    if (!PyUnstable_Long_IsCompact((PyLongObject *)item))
        return 0;
    *value = (i64)PyUnstable_Long_CompactValue((PyLongObject *)item);
    return 1;
#else
    Py_ssize_t digits = Py_SIZE(item); /* (negative for a negative int) */
    if (digits < -1 || digits > 1)
        return 0;
    *value = digits * (i64)((PyLongObject *)item)->ob_digit[0];
    return 1;
#endif
}

/* Copy the ints of `items` into `ids`; 0 at the first item that is not an int of 64 bits. */
static int copy_ints(PyObject *const *items, Py_ssize_t size, i64 *ids)
{
    for (Py_ssize_t k = 0; k < size; k++) {
        int overflow;
        if (!PyLong_CheckExact(items[k])) /* (bool is a subclass: refused here) */
            return 0;
        if (one_digit(items[k], &ids[k]))
            continue;
        long long id = PyLong_AsLongLongAndOverflow(items[k], &overflow);
        if (overflow)
            return 0;
        ids[k] = (i64)id;
    }
    return 1;
}

static PyObject *py_flat_ids(PyObject *Py_UNUSED(self), PyObject *object)
{
    PyObject *sequences = PySequence_Fast(object, "flat_ids takes a sequence of sequences");
    if (sequences == NULL)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(sequences), total = 0, size;
    PyObject **each = PySequence_Fast_ITEMS(sequences), **items;
    PyObject *result = Py_None;
    Array ids = {0}, lengths = {0};
    for (Py_ssize_t s = 0; s < count; s++) { /* first the lengths: one allocation */
        if (!sequence_items(each[s], &items, &size))
            goto done;
        total += size;
    }
    if (new_zeros(total, -1, "int64", &ids) < 0 || new_zeros(count, -1, "int64", &lengths) < 0) {
        result = NULL;
        goto done;
    }
    for (Py_ssize_t s = 0, at = 0; s < count; s++) {
        sequence_items(each[s], &items, &size);
        if (!copy_ints(items, size, ints(&ids) + at))
            goto done;
        ints(&lengths)[s] = size;
        at += size;
    }
    result = PyTuple_Pack(2, ids.array, lengths.array);
done:
    if (result == Py_None)
        Py_INCREF(result);
    release(&ids);
    release(&lengths);
    Py_DECREF(sequences);
    return result;
}

/* -- scoring ----------------------------------------------------------------------------- */

/* The exact sum of the terms rounded once, to nearest with ties to even, by Shewchuk's
 * non-overlapping partial sums (as math.fsum): NaN if a term or a partial sum is not finite.
 * `partials` has room for `count` numbers. */
static double rounded_sum(const double *terms, Py_ssize_t count, double *partials)
{
    Py_ssize_t used = 0;
    for (Py_ssize_t t = 0; t < count; t++) {
        double total = terms[t];
        Py_ssize_t kept = 0;
        for (Py_ssize_t k = 0; k < used; k++) {
            double other = partials[k];
            if (fabs(total) < fabs(other)) {
                double swapped = total;
                total = other;
                other = swapped;
            }
            double high = total + other;
            double low = other - (high - total);
            if (low != 0.0)
                partials[kept++] = low;
            total = high;
        }
        if (!isfinite(total))
            return NAN;
        used = kept;
        if (total != 0.0)
            partials[used++] = total;
    }
    if (used == 0)
        return 0.0;
    /* Add the partials from the largest down, until an addition is inexact... */
    used -= 1;
    double high = partials[used], low = 0.0;
    while (used > 0) {
        double total = high;
        used -= 1;
        high = total + partials[used];
        low = partials[used] - (high - total);
        if (low != 0.0)
            break;
    }
    /* ... and round a half-way result to even: the partials left decide which way it lies. */
    if (used > 0 && ((low < 0 && partials[used - 1] < 0) || (low > 0 && partials[used - 1] > 0))) {
        double doubled = low * 2;
        double rounded = high + doubled;
        if (doubled == rounded - high)
            high = rounded;
    }
    return high;
}

/* Row by row, exp(fsum(w * log p)) over the orders of nonzero weight; 0 where such an order
 * has precision 0 or none, or where no order has weight; NaN where the scalar code meets a
 * non-finite number or raises. `scratch` has room for 2 * orders numbers. */
static void geometric_means(const double *precisions, const unsigned char *defined,
                            const double *weights, Py_ssize_t rows, Py_ssize_t orders,
                            double *means, double *scratch)
{
    double *terms = scratch, *partials = scratch + orders;
    for (Py_ssize_t row = 0; row < rows; row++) {
        Py_ssize_t counted = 0;
        for (Py_ssize_t n = 0; n < orders; n++) {
            Py_ssize_t cell = row * orders + n;
            if (weights[cell] == 0)
                continue;
            if (!defined[cell] || precisions[cell] == 0) {
                counted = -1;
                break;
            }
            terms[counted++] = weights[cell] * log(precisions[cell]);
        }
        if (counted > 0) {
            double mean = exp(rounded_sum(terms, counted, partials));
            means[row] = isfinite(mean) ? mean : NAN;
        }
    }
}

static PyObject *weighted_geometric_means(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"precisions", "defined", "order_weights", NULL};
    static const char *dtypes[] = {"float64", "bool", "float64"};
    PyObject *objects[3];
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO:weighted_geometric_means", keywords,
                                     &objects[0], &objects[1], &objects[2]))
        return NULL;
    Array arrays[3] = {{0}}, means = {0};
    PyObject *result = NULL;
    double *scratch = NULL;
    Py_ssize_t rows, orders;
    for (int k = 0; k < 3; k++)
        if (take(objects[k], dtypes[k], 2, keywords[k], &arrays[k]) < 0)
            goto done;
    rows = arrays[0].view.shape[0];
    orders = arrays[0].view.shape[1];
    for (int k = 1; k < 3; k++)
        if (arrays[k].view.shape[0] != rows || arrays[k].view.shape[1] != orders) {
            PyErr_Format(PyExc_ValueError, "%s must have the shape of precisions, (%zd, %zd)",
                         keywords[k], rows, orders);
            goto done;
        }
    if (new_zeros(rows, -1, "float64", &means) < 0)
        goto done;
    scratch = PyMem_RawMalloc((size_t)(2 * orders + 1) * sizeof(double));
    if (scratch == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    geometric_means(arrays[0].view.buf, arrays[1].view.buf, arrays[2].view.buf, rows, orders,
                    means.view.buf, scratch);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(scratch);
    result = Py_NewRef(means.array);
done:
    for (int k = 0; k < 3; k++)
        release(&arrays[k]);
    release(&means);
    return result;
}

/* rounded_sum on a sequence of floats, for the tests against math.fsum. */
static PyObject *py_rounded_sum(PyObject *Py_UNUSED(self), PyObject *sequence)
{
    /* A tuple: a number's __float__ is Python code, which may change a list being read. */
    PyObject *items = PySequence_Tuple(sequence);
    if (items == NULL)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(items);
    double *numbers = PyMem_Malloc((size_t)(2 * count + 1) * sizeof(double));
    if (numbers == NULL) {
        Py_DECREF(items);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        numbers[k] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(items, k));
        if (numbers[k] == -1.0 && PyErr_Occurred()) {
            PyMem_Free(numbers);
            Py_DECREF(items);
            return NULL;
        }
    }
    double sum = rounded_sum(numbers, count, numbers + count);
    PyMem_Free(numbers);
    Py_DECREF(items);
    return PyFloat_FromDouble(sum);
}

/* -- line ends ------------------------------------------------------------------------------ */

/* The newlines of a stride are counted first, and found one by one (memchr) only in a stride
   where a partition starts: a count takes a fraction of the time of finding each. */
enum { LINE_STRIDE = 4096 };

/* The number of newlines in data[0, size): with SSE2, 16 bytes at a time, in byte counters
   that are added up before any can pass 255. */
static Py_ssize_t newlines_in(const char *data, Py_ssize_t size)
{
    Py_ssize_t count = 0, k = 0;
#if defined(__SSE2__)
    const __m128i newline = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    while (size - k >= 16) {
        __m128i counters = zero;
        Py_ssize_t end = k + 16 * (size - k >= 16 * 255 ? 255 : (size - k) / 16);
        for (; k < end; k += 16) { /* (a match is -1: subtracting it counts one) */
            __m128i bytes = _mm_loadu_si128((const __m128i *)(data + k));
            counters = _mm_sub_epi8(counters, _mm_cmpeq_epi8(bytes, newline));
        }
        __m128i sums = _mm_sad_epu8(counters, zero); /* (two sums, of 8 counters each) */
        count += _mm_cvtsi128_si32(sums) + _mm_extract_epi16(sums, 4);
    }
#endif
    for (; k < size; k++)
        count += data[k] == '\n';
    return count;
}

/* line_ends(data, every, first): the newlines of a block of a file, counted and found without
   the GIL, so that the files of --jobs are scanned on threads at once: how many, and the offset
   just after those numbered first, first + every, ... (from 0), where partitions start. */
static PyObject *line_ends(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"data", "every", "first", NULL};
    Py_buffer view;
    Py_ssize_t every, first;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*nn:line_ends", keywords, &view, &every,
                                     &first))
        return NULL;
    if (every < 1 || first < 0) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "line_ends: every must be at least 1, first at least 0");
        return NULL;
    }
    /* A newline is a byte: at most one offset for every `every` bytes, and one more. */
    Py_ssize_t capacity = view.len / every + 1, found = 0, newlines = 0;
    Py_ssize_t *offsets = PyMem_Malloc((size_t)capacity * sizeof(Py_ssize_t));
    if (offsets == NULL) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS
    const char *start = view.buf, *end = start + view.len;
    Py_ssize_t next = first; /* the number of the next newline that starts a partition */
    for (const char *stride = start; stride < end; stride += LINE_STRIDE) {
        const char *stop = end - stride > LINE_STRIDE ? stride + LINE_STRIDE : end, *at = stride;
        Py_ssize_t here = newlines_in(stride, stop - stride);
        if (next < 0 || newlines + here <= next) { /* (no partition starts in the stride) */
            newlines += here;
            continue;
        }
        while ((at = memchr(at, '\n', (size_t)(stop - at))) != NULL) {
            if (newlines == next) {
                offsets[found++] = at - start + 1;
                next = every > PY_SSIZE_T_MAX - next ? -1 : next + every; /* -1: no more */
            }
            newlines++;
            at++;
        }
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    PyObject *starts = PyList_New(found);
    for (Py_ssize_t k = 0; starts != NULL && k < found; k++) {
        PyObject *offset = PyLong_FromSsize_t(offsets[k]);
        if (offset == NULL)
            Py_CLEAR(starts);
        else
            PyList_SET_ITEM(starts, k, offset);
    }
    PyMem_Free(offsets);
    return starts == NULL ? NULL : Py_BuildValue("nN", newlines, starts);
}

/* -- bootstrap tallies ------------------------------------------------------------------- */

enum { TALLY_AHEAD = 16 };

/* tally(counts, draws): one more in `counts` (a writable uint8 array) at each draw, modulo
   256, without the GIL; the draws at which a count came round from 255 to 0, in order (each
   stands for 256 more). Draws are all checked first, so that a bad one changes nothing. */
static PyObject *tally(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"counts", "draws", NULL};
    PyObject *counts_object, *draws_object;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO:tally", keywords, &counts_object,
                                     &draws_object))
        return NULL;
    Py_buffer counts;
    if (PyObject_GetBuffer(counts_object, &counts,
                           PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_FORMAT) < 0)
        return NULL;
    Array draws = {0};
    Ints wrapped = {0};
    PyObject *result = NULL;
    if (counts.ndim != 1 || strcmp(counts.format, "B") != 0) {
        PyErr_SetString(PyExc_ValueError, "tally: counts must be a 1-dimensional uint8 array");
        goto done;
    }
    if (take(draws_object, "int64", 1, "draws", &draws) < 0)
        goto done;
    Py_ssize_t size = counts.shape[0], drawn = length(&draws), bad = -1;
    const i64 *at = ints(&draws);
    unsigned char *tallies = counts.buf;
    int full = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < drawn && bad < 0; k++)
        if ((uint64_t)at[k] >= (uint64_t)size)
            bad = k;
    for (Py_ssize_t k = 0; k < drawn && bad < 0 && !full; k++) {
        /* The counts of a long corpus are far apart: ask for the one needed 16 draws on. */
        if (k + TALLY_AHEAD < drawn)
            PREFETCH(&tallies[at[k + TALLY_AHEAD]]);
        if (++tallies[at[k]] == 0) {
            full = !reserve_ints(&wrapped, 1);
            if (!full)
                wrapped.items[wrapped.size++] = at[k];
        }
    }
    Py_END_ALLOW_THREADS
    if (bad >= 0)
        PyErr_Format(PyExc_ValueError, "tally: draw %zd is %lld, not an index of %zd counts", bad,
                     (long long)at[bad], size);
    else if (full)
        PyErr_NoMemory();
    else {
        Array around = {0};
        if (new_zeros(wrapped.size, -1, "int64", &around) == 0) {
            if (wrapped.size > 0)
                memcpy(around.view.buf, wrapped.items, (size_t)wrapped.size * sizeof(i64));
            result = Py_NewRef(around.array);
        }
        release(&around);
    }
done:
    free(wrapped.items);
    release(&draws);
    PyBuffer_Release(&counts);
    return result;
}

enum { WEIGHED_COLUMNS = 10 }; /* the most columns weigh_rows is inlined for */

/* The weighted sums of `rows` rows of `columns` bytes, and the weight of each first byte,
   added to `summed` and `by_first`. Inlined where `columns` is a constant, the sums stay in
   registers: the rows' bytes may alias any memory, so sums in memory are stored at every row. */
static ALWAYS_INLINE void weigh_rows(const unsigned char *weight, const unsigned char *row,
                                     Py_ssize_t rows, Py_ssize_t columns, i64 *summed,
                                     i64 *by_first)
{
    i64 sums[WEIGHED_COLUMNS] = {0};
    for (Py_ssize_t k = 0; k < rows; k++, row += columns) {
        i64 times = weight[k];
        by_first[row[0]] += times;
        for (Py_ssize_t c = 0; c < columns; c++)
            sums[c] += times * row[c];
    }
    for (Py_ssize_t c = 0; c < columns; c++)
        summed[c] += sums[c];
}

/* weighted_rows(weights, rows): the sum of each column of `rows` (a uint8 matrix), row k
   counted weights[k] times (a uint8 array), and the total weight of the rows by the number
   in their first column (256 totals), in one pass without the GIL: a bootstrap resample's
   sums from its tallies. */
static PyObject *weighted_rows(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"weights", "rows", NULL};
    PyObject *objects[2];
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO:weighted_rows", keywords, &objects[0],
                                     &objects[1]))
        return NULL;
    Py_buffer views[2];
    int held = 0;
    Array sums = {0}, firsts = {0};
    PyObject *result = NULL;
    for (; held < 2; held++) {
        if (PyObject_GetBuffer(objects[held], &views[held], PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
            goto done;
        if (views[held].ndim != held + 1 || strcmp(views[held].format, "B") != 0) {
            PyErr_Format(PyExc_ValueError, "weighted_rows: %s must be a %d-dimensional uint8 array",
                         keywords[held], held + 1);
            held++;
            goto done;
        }
    }
    Py_ssize_t rows = views[1].shape[0], columns = views[1].shape[1];
    if (views[0].shape[0] != rows || columns < 1) {
        PyErr_Format(PyExc_ValueError,
                     "weighted_rows: rows must be one row (of at least one number) a weight, got "
                     "%zd weights and %zd rows of %zd", views[0].shape[0], rows, columns);
        goto done;
    }
    if (new_zeros(columns, -1, "int64", &sums) < 0 || new_zeros(256, -1, "int64", &firsts) < 0)
        goto done;
    const unsigned char *weight = views[0].buf, *row = views[1].buf;
    i64 *summed = ints(&sums), *by_first = ints(&firsts);
    Py_BEGIN_ALLOW_THREADS
    /* (No test for a weight of 0, a third of a resample's: a branch that often goes either way
       costs more than the additions it saves.) */
    switch (columns) { /* BLEU's rows: 2 + N numbers (its totals derived), or 2 + 2N */
    case 3: weigh_rows(weight, row, rows, 3, summed, by_first); break;
    case 4: weigh_rows(weight, row, rows, 4, summed, by_first); break;
    case 5: weigh_rows(weight, row, rows, 5, summed, by_first); break;
    case 6: weigh_rows(weight, row, rows, 6, summed, by_first); break;
    case 10: weigh_rows(weight, row, rows, 10, summed, by_first); break;
    default:
        for (Py_ssize_t k = 0; k < rows; k++, row += columns) {
            by_first[row[0]] += weight[k];
            for (Py_ssize_t c = 0; c < columns; c++)
                summed[c] += (i64)weight[k] * row[c];
        }
    }
    Py_END_ALLOW_THREADS
    result = PyTuple_Pack(2, sums.array, firsts.array);
done:
    release(&sums);
    release(&firsts);
    for (int k = 0; k < held; k++)
        PyBuffer_Release(&views[k]);
    return result;
}

/* (defined at the end of the file) */
static PyObject *ngram_labels(PyObject *self, PyObject *args, PyObject *kwargs);
static PyObject *count_texts(PyObject *self, PyObject *args, PyObject *kwargs);
static void utf8_tables(void);

static PyMethodDef methods[] = {
    {"shared_ngram_counts", (PyCFunction)(void (*)(void))shared_ngram_counts,
     METH_VARARGS | METH_KEYWORDS, "The n-grams of each segment's hypothesis that occur in one "
     "of its references (see bleuprint._kernels._python)."},
    {"weighted_geometric_means", (PyCFunction)(void (*)(void))weighted_geometric_means,
     METH_VARARGS | METH_KEYWORDS, "Row by row, exp(fsum(w * log p)) (see bleuprint._kernels._python)."},
    {"tokenize_texts", (PyCFunction)(void (*)(void))py_tokenize_texts,
     METH_VARARGS | METH_KEYWORDS,
     "The tokens of each text by the named built-in tokenizer ('whitespace', '13a', 'char')."},
    {"flat_ids", py_flat_ids, METH_O,
     "Sequences of Python ints as one int64 array of their ids end to end and one of their "
     "lengths; None where an item is not an int of 64 bits (see bleuprint._kernels._python)."},
    {"rounded_sum", py_rounded_sum, METH_O,
     "The correctly rounded sum of the floats (NaN on overflow), as the means use it."},
    {"ngram_labels", (PyCFunction)(void (*)(void))ngram_labels, METH_VARARGS | METH_KEYWORDS,
     "For each order, every n-gram occurrence's stream and label (see bleuprint._kernels._python)."},
    {"count_texts", (PyCFunction)(void (*)(void))count_texts, METH_VARARGS | METH_KEYWORDS,
     "A chunk's texts (or token lists) tokenized, interned and counted at once; None where "
     "they are not plain (see bleuprint._kernels._python)."},
    {"line_ends", (PyCFunction)(void (*)(void))line_ends, METH_VARARGS | METH_KEYWORDS,
     "The newlines of a block of bytes: how many, and the offsets just after every `every`-th "
     "from number `first` (see bleuprint._kernels._python)."},
    {"tally", (PyCFunction)(void (*)(void))tally, METH_VARARGS | METH_KEYWORDS,
     "One more in a uint8 array of counts at each draw, modulo 256; the draws at which a count "
     "came round to 0 (see bleuprint._kernels._python)."},
    {"weighted_rows", (PyCFunction)(void (*)(void))weighted_rows, METH_VARARGS | METH_KEYWORDS,
     "The weighted sum of each column of a uint8 matrix, and the weight of its rows by their "
     "first number (see bleuprint._kernels._python)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "bleuprint._kernels._compiled",
    .m_doc = "bleuprint's compiled kernel (C); bleuprint._kernels._python is its plain-Python twin.",
    .m_size = -1,
    .m_methods = methods,
};

/* The module's int `name`, of 64 bits (a C long may have 32); -1 with an exception. */
static int add_number(PyObject *module, const char *name, i64 value)
{
    PyObject *number = PyLong_FromLongLong(value);
    int added = number == NULL ? -1 : PyModule_AddObjectRef(module, name, number);
    Py_XDECREF(number);
    return added;
}

PyMODINIT_FUNC PyInit__compiled(void)
{
    PyObject *numpy = PyImport_ImportModule("numpy");
    if (numpy == NULL)
        return NULL;
    as_contiguous = PyObject_GetAttrString(numpy, "ascontiguousarray");
    zeros = PyObject_GetAttrString(numpy, "zeros");
    Py_DECREF(numpy);
    if (as_contiguous == NULL || zeros == NULL)
        return NULL;
    PyObject *exceptions = PyImport_ImportModule("bleuprint.exceptions");
    if (exceptions == NULL)
        return NULL;
    input_error = PyObject_GetAttrString(exceptions, "InputError");
    Py_DECREF(exceptions);
    if (input_error == NULL)
        return NULL;
    for (const char *symbol = "!\"#$%&()*+/:;<=>?@[\\]^_`{|}~"; *symbol; symbol++)
        SYMBOLS[(unsigned char)*symbol] = 1;
    for (Py_UCS4 c = 0; c < 128; c++)
        LOOKED_AT[c] = SYMBOLS[c] || is_mark(c) || is_digit(c) || c == '-';
    utf8_tables();
#if defined(SSSE3_DISPATCH)
    __builtin_cpu_init();
    has_ssse3 = __builtin_cpu_supports("ssse3");
#endif
    for (Py_UCS4 c = 0; c < 256; c++) {
        SPACE[c] = (unsigned char)Py_UNICODE_ISSPACE(c);
        CLASSES[c] = c == '<' || c == '&' || c == '\n' ? ESCAPE
                     : SPACE[c]                          ? BLANK
                     : c < 128 && SYMBOLS[c]             ? SYMBOL
                     : is_mark(c)                        ? MARK
                     : is_digit(c)                       ? DIGIT
                     : c == '-'                          ? DASH
                                                         : PLAIN;
    }
    if (PyType_Ready(&VocabularyType) < 0)
        return NULL;
    PyObject *created = PyModule_Create(&module);
    if (created == NULL)
        return NULL;
    if (PyModule_AddObjectRef(created, "Vocabulary", (PyObject *)&VocabularyType) < 0 ||
        add_number(created, "MAX_HYPOTHESIS_TOKENS", BLEUPRINT_MAX_HYPOTHESIS_TOKENS) < 0 ||
        add_number(created, "MAX_VOCABULARY", BLEUPRINT_MAX_VOCABULARY) < 0) {
        Py_DECREF(created);
        return NULL;
    }
    return created;
}

/* -- n-gram labels of many streams (pairwise scores, MBR) ---------------------------------
 *
 * ngram_labels(token_ids, lengths, max_n): the streams laid end to end (stream s has
 * lengths[s] tokens). For each order n, every occurrence of an n-gram whose tokens are all
 * non-negative (a negative id never matches), in order of position: its stream, and a label.
 * A unigram's label is the rank of its id among all the ids given (negative ones included); a
 * longer n-gram's is its rank among the n-grams of its order present, in the lexicographic
 * order of its tokens' unigram labels: the very labels numpy.unique gives the plain-Python twin.
 * Ranks come from two stable counting sorts per order (by last token, then by the label of
 * the first n - 1), so each order is linear in its occurrences. */

typedef struct { i64 value, index; } Ranked;

static int by_value(const void *a, const void *b)
{
    i64 x = ((const Ranked *)a)->value, y = ((const Ranked *)b)->value;
    return (x > y) - (x < y);
}

/* `out` holds each of the `count` items' rank by (first, second), lexicographic; `order` and
 * `tally` are scratch of `count` and max(first_range, second_range) + 1 items. */
static void rank_pairs(const i64 *first, i64 first_range, const i64 *second, i64 second_range,
                       i64 count, i64 *order, i64 *scratch, i64 *tally, i64 *out)
{
    memset(tally, 0, (size_t)(second_range + 1) * sizeof(i64));
    for (i64 i = 0; i < count; i++)
        tally[second[i] + 1]++;
    for (i64 k = 0; k < second_range; k++)
        tally[k + 1] += tally[k];
    for (i64 i = 0; i < count; i++)
        scratch[tally[second[i]]++] = i;
    memset(tally, 0, (size_t)(first_range + 1) * sizeof(i64));
    for (i64 i = 0; i < count; i++)
        tally[first[i] + 1]++;
    for (i64 k = 0; k < first_range; k++)
        tally[k + 1] += tally[k];
    for (i64 k = 0; k < count; k++) {
        i64 i = scratch[k];
        order[tally[first[i]]++] = i;
    }
    i64 rank = -1;
    for (i64 k = 0; k < count; k++) {
        i64 i = order[k];
        if (k == 0 || first[i] != first[order[k - 1]] || second[i] != second[order[k - 1]])
            rank++;
        out[i] = rank;
    }
}

static PyObject *order_arrays(const i64 *stream, const i64 *starts, const i64 *labels, i64 count)
{
    Array arrays[2] = {{0}};
    PyObject *pair = NULL;
    if (new_zeros(count, -1, "int64", &arrays[0]) < 0 || new_zeros(count, -1, "int64", &arrays[1]) < 0)
        goto done;
    for (i64 i = 0; i < count; i++) {
        ints(&arrays[0])[i] = stream[starts[i]];
        ints(&arrays[1])[i] = labels[i];
    }
    pair = PyTuple_Pack(2, arrays[0].array, arrays[1].array);
done:
    release(&arrays[0]);
    release(&arrays[1]);
    return pair;
}

static PyObject *ngram_labels(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"token_ids", "lengths", "max_n", NULL};
    PyObject *objects[2];
    Py_ssize_t max_n;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOn:ngram_labels", keywords, &objects[0],
                                     &objects[1], &max_n))
        return NULL;
    if (max_n < 1) {
        PyErr_Format(PyExc_ValueError, "max_n must be at least 1, got %zd", max_n);
        return NULL;
    }
    Array arrays[2] = {{0}};
    PyObject *result = NULL;
    i64 *work = NULL;
    Ranked *ranked = NULL;
    for (int k = 0; k < 2; k++)
        if (take(objects[k], "int64", 1, keywords[k], &arrays[k]) < 0)
            goto done;
    const i64 *ids = ints(&arrays[0]), *lengths = ints(&arrays[1]);
    i64 tokens = length(&arrays[0]), streams = length(&arrays[1]), total = 0;
    for (i64 s = 0; s < streams; s++) {
        if (lengths[s] < 0) {
            PyErr_SetString(PyExc_ValueError, "lengths must not be negative");
            goto done;
        }
        total += lengths[s];
    }
    if (total != tokens) {
        PyErr_Format(PyExc_ValueError, "lengths add up to %lld, but there are %lld token ids",
                     (long long)total, (long long)tokens);
        goto done;
    }
    size_t room = (size_t)(tokens > 0 ? tokens : 1) + 1;
    /* stream, end, unigram label, starts, labels, next starts, first, second, order, scratch,
     * tally, next labels */
    work = malloc(12 * room * sizeof(i64));
    ranked = malloc(room * sizeof(Ranked));
    result = PyList_New(0);
    if (work == NULL || ranked == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (result == NULL)
        goto done;
    i64 *stream = work, *end = work + room, *unigram = work + 2 * room, *starts = work + 3 * room;
    i64 *labels = work + 4 * room, *next_starts = work + 5 * room, *first = work + 6 * room;
    i64 *second = work + 7 * room, *order = work + 8 * room, *scratch = work + 9 * room;
    i64 *tally = work + 10 * room, *next_labels = work + 11 * room;
    for (i64 s = 0, p = 0; s < streams; s++)
        for (i64 k = 0; k < lengths[s]; k++, p++) {
            stream[p] = s;
            end[p] = p - k + lengths[s];
        }
    for (i64 p = 0; p < tokens; p++)
        ranked[p] = (Ranked){ids[p], p};
    qsort(ranked, (size_t)tokens, sizeof(Ranked), by_value);
    i64 unigrams = 0;
    for (i64 k = 0; k < tokens; k++) {
        if (k > 0 && ranked[k].value != ranked[k - 1].value)
            unigrams++;
        unigram[ranked[k].index] = unigrams;
    }
    if (tokens > 0)
        unigrams++;
    i64 alive = 0, label_range = unigrams;
    for (i64 p = 0; p < tokens; p++)
        if (ids[p] >= 0) {
            starts[alive] = p;
            labels[alive++] = unigram[p];
        }
    for (Py_ssize_t n = 1; n <= max_n; n++) {
        PyObject *pair = order_arrays(stream, starts, labels, alive);
        if (pair == NULL || PyList_Append(result, pair) < 0) {
            Py_XDECREF(pair);
            Py_CLEAR(result);
            goto done;
        }
        Py_DECREF(pair);
        if (n == max_n)
            break;
        i64 kept = 0; /* the (n + 1)-gram at p: the n-gram at p and the token at p + n */
        for (i64 i = 0; i < alive; i++) {
            i64 p = starts[i];
            if (p + n + 1 <= end[p] && ids[p + n] >= 0) {
                next_starts[kept] = p;
                first[kept] = labels[i];
                second[kept++] = unigram[p + n];
            }
        }
        rank_pairs(first, label_range, second, unigrams, kept, order, scratch, tally,
                   next_labels);
        i64 *swap = starts;
        starts = next_starts;
        next_starts = swap;
        swap = labels;
        labels = next_labels;
        next_labels = swap;
        alive = kept;
        label_range = 0;
        for (i64 i = 0; i < alive; i++)
            if (labels[i] + 1 > label_range)
                label_range = labels[i] + 1;
    }
done:
    free(work);
    free(ranked);
    release(&arrays[0]);
    release(&arrays[1]);
    return result;
}

/* -- a chunk counted whole: texts in, per-segment statistics out -------------------------
 *
 * count_texts(hypotheses, references, tokenizer, tokenize, lowercase, max_n): hypotheses is a
 * list or tuple of segments, references one list or tuple of segments per hypothesis, at
 * least one each. With a built-in tokenizer's name, every segment is a str (lowercased first
 * where `lowercase` is true), tokenized here; with None, every segment is a list or tuple of
 * str tokens. Where anything else is given (another type, a subclass, a segment without
 * references), it returns None, and the caller counts those segments its careful way, which
 * names what is wrong. The tokens are interned into a vocabulary of the call's own and
 * counted as shared_ngram_counts counts them, segment s being hypothesis s and its
 * references; all of it without the GIL, once every str read is held. It returns (the token
 * count of each text, the hypotheses' then the references' in order; the number of
 * references of each segment; singles; repeated), the last two as shared_ngram_counts gives
 * them. (`tokenize`, the tokenizer in Python, is for the plain-Python twin.)
 *
 * Lines: where hypotheses is a str, it is a block of lines (separated by \n), one hypothesis
 * a line, and references a list or tuple of such blocks with as many lines each, line i of
 * each the references of hypothesis i; a reader of files then makes no str per line. Blocks
 * may also be bytes, every one of them, decoded here from UTF-8 (as strictly as Python does:
 * else UnicodeDecodeError), each line as narrow as its characters allow. */

/* A text: a whole str, or a line of one (whose block may be read past its end). */
typedef struct {
    const void *data;
    Py_ssize_t size;
    int kind;
    const char *readable; /* the end of what holds it */
} Span;

/* What count_texts holds of its arguments, so that it may let the GIL go. */
typedef struct {
    PyObject **strs;          /* every str read, a text, a block or a token, with a reference */
    Py_ssize_t count;         /* held */
    Py_ssize_t segments, texts;
    i64 *reference_counts;    /* per segment */
    i64 *sizes;               /* token lists: the number of tokens of each text */
    Span *spans;              /* texts: where each is in the held strs, or in `narrowed` */
    char *narrowed;           /* lines of wide blocks, each as narrow as its characters allow */
} Held;

static void let_go_held(Held *h)
{
    for (Py_ssize_t k = 0; k < h->count; k++)
        Py_DECREF(h->strs[k]);
    PyMem_Free(h->strs);
    PyMem_Free(h->reference_counts);
    PyMem_Free(h->sizes);
    PyMem_Free(h->spans);
    PyMem_Free(h->narrowed);
}

/* Hold `object` if it is a str exactly; 1 if held, 0 if not a str, -1 with an exception. */
static int hold_str(Held *h, PyObject *object)
{
    if (!PyUnicode_CheckExact(object))
        return 0;
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(object) < 0)
        return -1;
#endif
    h->strs[h->count++] = Py_NewRef(object);
    return 1;
}

/* Every held str lowercased (str.lower); -1 with an exception. */
static int lowercased(Held *h)
{
    static PyObject *lower = NULL;
    if (lower == NULL && (lower = PyUnicode_InternFromString("lower")) == NULL)
        return -1;
    for (Py_ssize_t k = 0; k < h->count; k++) {
        PyObject *low = PyObject_CallMethodNoArgs(h->strs[k], lower);
        if (low == NULL)
            return -1;
#if PY_VERSION_HEX < 0x030C0000
        if (PyUnicode_READY(low) < 0) {
            Py_DECREF(low);
            return -1;
        }
#endif
        Py_SETREF(h->strs[k], low);
    }
    return 0;
}

/* The segments' texts (every hypothesis, then each segment's references) in `texts`, borrowed
 * from the sequences, with the references of each segment counted; 1 if they are laid out
 * plainly, 0 if not (the caller gives None), -1 with an exception. */
static int plain_texts(PyObject *hypotheses, PyObject *references, Held *h, PyObject ***texts)
{
    Py_ssize_t segments, lists;
    PyObject **hypothesis, **reference, **items;
    if (!sequence_items(hypotheses, &hypothesis, &segments) || !sequence_items(references, &reference, &lists))
        return 0;
    if (lists != segments) {
        PyErr_Format(PyExc_ValueError, "%zd hypotheses but %zd reference lists", segments, lists);
        return -1;
    }
    h->segments = segments;
    h->texts = segments;
    h->reference_counts = PyMem_Malloc((size_t)(segments > 0 ? segments : 1) * sizeof(i64));
    if (h->reference_counts == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t s = 0; s < segments; s++) {
        Py_ssize_t size;
        if (!sequence_items(reference[s], &items, &size) || size == 0)
            return 0;
        h->reference_counts[s] = size;
        h->texts += size;
    }
    *texts = PyMem_Malloc((size_t)(h->texts > 0 ? h->texts : 1) * sizeof(PyObject *));
    if (*texts == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (segments > 0)
        memcpy(*texts, hypothesis, (size_t)segments * sizeof(PyObject *));
    for (Py_ssize_t s = 0, at = segments; s < segments; s++) {
        Py_ssize_t size = 0;
        sequence_items(reference[s], &items, &size); /* (a list or tuple: checked above) */
        memcpy(*texts + at, items, (size_t)size * sizeof(PyObject *));
        at += size;
    }
    return 1;
}

/* Hold every str of the segments: the texts themselves, or (`tokens`) the tokens of each
 * token list; 1 if all are plain, 0 if not, -1 with an exception. Nothing here runs Python
 * code before every str is held (lowercasing comes after), so the borrowed items stay. */
static int hold(PyObject *hypotheses, PyObject *references, int tokens, Held *h)
{
    PyObject **texts = NULL;
    int plain = plain_texts(hypotheses, references, h, &texts);
    Py_ssize_t strs = h->texts;
    if (plain > 0 && tokens) {
        h->sizes = PyMem_Malloc((size_t)(h->texts > 0 ? h->texts : 1) * sizeof(i64));
        if (h->sizes == NULL) {
            PyErr_NoMemory();
            plain = -1;
        }
        strs = 0;
        for (Py_ssize_t t = 0; plain > 0 && t < h->texts; t++) {
            PyObject **items;
            Py_ssize_t size = 0;
            plain = sequence_items(texts[t], &items, &size);
            h->sizes[t] = size;
            strs += size;
        }
    }
    if (plain > 0) {
        h->strs = PyMem_Malloc((size_t)(strs > 0 ? strs : 1) * sizeof(PyObject *));
        if (h->strs == NULL) {
            PyErr_NoMemory();
            plain = -1;
        }
    }
    for (Py_ssize_t t = 0; plain > 0 && t < h->texts; t++) {
        if (!tokens) {
            plain = hold_str(h, texts[t]);
            continue;
        }
        PyObject **items = NULL;
        Py_ssize_t size = 0;
        sequence_items(texts[t], &items, &size); /* (a list or tuple: checked above) */
        for (Py_ssize_t k = 0; plain > 0 && k < size; k++)
            plain = hold_str(h, items[k]);
    }
    PyMem_Free(texts);
    return plain;
}

/* Hold the blocks of lines (see count_texts), all str or all bytes (`*utf8`); 1 if they are
 * plain, 0 if not, -1 with an exception. Bytes to lowercase are decoded into str here. */
static int hold_blocks(PyObject *hypotheses, PyObject *references, int lowercase, Held *h,
                       int *utf8)
{
    PyObject **blocks;
    Py_ssize_t streams;
    if (!sequence_items(references, &blocks, &streams) || streams == 0)
        return 0;
    h->strs = PyMem_Malloc((size_t)(streams + 1) * sizeof(PyObject *));
    if (h->strs == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *utf8 = PyBytes_CheckExact(hypotheses);
    for (Py_ssize_t k = -1; k < streams; k++) {
        PyObject *block = k < 0 ? hypotheses : blocks[k];
        if (!*utf8)
            h->strs[h->count] = PyUnicode_CheckExact(block) ? Py_NewRef(block) : NULL;
        else if (!PyBytes_CheckExact(block))
            h->strs[h->count] = NULL;
        else if (lowercase) /* (str.lower's rules: the text is decoded for them) */
            h->strs[h->count] = PyUnicode_DecodeUTF8(PyBytes_AS_STRING(block),
                                                     PyBytes_GET_SIZE(block), "strict");
        else
            h->strs[h->count] = Py_NewRef(block);
        if (h->strs[h->count] == NULL)
            return PyErr_Occurred() ? -1 : 0;
        h->count++;
    }
    *utf8 = *utf8 && !lowercase;
    return 1;
}

/* A held block's characters: a str's, or the bytes of UTF-8 text (read as kind 1). */
static const char *block_data(PyObject *block, int *kind, Py_ssize_t *size)
{
    if (PyBytes_CheckExact(block)) {
        *kind = PyUnicode_1BYTE_KIND;
        *size = PyBytes_GET_SIZE(block);
        return PyBytes_AS_STRING(block);
    }
    *kind = PyUnicode_KIND(block);
    *size = PyUnicode_GET_LENGTH(block);
    return PyUnicode_DATA(block);
}

/* The number of lines of a held block (one more than its \n), with where each starts in
 * `starts` if given. */
static Py_ssize_t lines_of(PyObject *block, Py_ssize_t *starts)
{
    int kind;
    Py_ssize_t size, lines = 1;
    const void *data = block_data(block, &kind, &size);
    if (starts == NULL && kind == PyUnicode_1BYTE_KIND) /* (16 bytes at a time: faster) */
        return newlines_in(data, size) + 1;
    if (starts != NULL)
        starts[0] = 0;
    for (Py_ssize_t k = 0; k < size; k++) {
        if (kind == PyUnicode_1BYTE_KIND) { /* (most text: memchr finds the next at once) */
            const char *found = memchr((const char *)data + k, '\n', (size_t)(size - k));
            if (found == NULL)
                break;
            k = found - (const char *)data;
        } else if (PyUnicode_READ(kind, data, k) != '\n')
            continue;
        if (starts != NULL)
            starts[lines] = k + 1;
        lines++;
    }
    return lines;
}

static const uint64_t NOT_ASCII = 0x8080808080808080u; /* (the bit of each of 8 bytes) */

/* Of each byte as the first of a character in UTF-8: how many bytes follow it (4 where none
 * may start one), and the range of the second, narrower where it would be a shorter form, a
 * surrogate or above U+10FFFF. */
static unsigned char UTF8_MORE[256], UTF8_LOW[256], UTF8_HIGH[256];

static void utf8_tables(void)
{
    for (unsigned b = 0; b < 256; b++) {
        UTF8_MORE[b] = b < 0x80 ? 0 : b < 0xC2 ? 4 : b < 0xE0 ? 1 : b < 0xF0 ? 2 : b < 0xF5 ? 3 : 4;
        UTF8_LOW[b] = b == 0xE0 ? 0xA0 : b == 0xF0 ? 0x90 : 0x80;
        UTF8_HIGH[b] = b == 0xED ? 0x9F : b == 0xF4 ? 0x8F : 0xBF;
    }
}

/* Where the run of ASCII bytes from `k` ends (`size` at the latest): found 16 bytes at a time
 * where there is SSE2, 8 where not, then a byte at a time. */
static ALWAYS_INLINE Py_ssize_t ascii_end(const unsigned char *bytes, Py_ssize_t k,
                                          Py_ssize_t size)
{
#if defined(__SSE2__)
    for (; k + 16 <= size; k += 16) {
        unsigned high = (unsigned)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(bytes + k)));
        if (high != 0)
            return k + __builtin_ctz(high);
    }
#endif
    while (k + 8 <= size && !(load_64(bytes + k) & NOT_ASCII))
        k += 8;
    while (k < size && bytes[k] < 0x80)
        k++;
    return k;
}

/* Whether a character of three bytes whose lead is E1..EF but ED starts at `k`: what most
 * CJK text is made of, where any continuation bytes make a valid character (no shorter form,
 * no surrogate). */
static ALWAYS_INLINE int plain_three(const unsigned char *bytes, Py_ssize_t k, Py_ssize_t size)
{
    return size - k > 2 && bytes[k] - 0xE1u <= 0xEF - 0xE1 && bytes[k] != 0xED &&
           (bytes[k + 1] & 0xC0) == 0x80 && (bytes[k + 2] & 0xC0) == 0x80;
}

#if defined(__SSE2__)
/* 16 bytes as five characters of three bytes would lay them out (a byte for their leads, one
 * for their continuations, the 16th 0), and the bits of the leads in a movemask of them. */
#define LEADS_AND_CONTINUATIONS(lead, continuation)                                             \
    _mm_setr_epi8((char)(lead), (char)(continuation), (char)(continuation), (char)(lead),        \
                  (char)(continuation), (char)(continuation), (char)(lead), (char)(continuation), \
                  (char)(continuation), (char)(lead), (char)(continuation), (char)(continuation), \
                  (char)(lead), (char)(continuation), (char)(continuation), 0)
enum { FIVE_LEADS = 0x1249 };

/* Whether the 15 bytes at `bytes` are five plain characters of three bytes (see plain_three),
 * read in one load of 16 (the caller has them): runs of CJK text checked five at a time. */
static ALWAYS_INLINE int five_plain_threes(const unsigned char *bytes)
{
    const __m128i v = _mm_loadu_si128((const __m128i *)bytes);
    /* a lead's top four bits 1110, a continuation's top two 10 (the 16th byte is not tested) */
    __m128i shaped = _mm_cmpeq_epi8(_mm_and_si128(v, LEADS_AND_CONTINUATIONS(0xF0, 0xC0)),
                                    LEADS_AND_CONTINUATIONS(0xE0, 0x80));
    /* and no lead E0 or ED (their second byte's range is narrower: plain_three's) */
    __m128i narrower = _mm_or_si128(_mm_cmpeq_epi8(v, LEADS_AND_CONTINUATIONS(0xE0, 0)),
                                    _mm_cmpeq_epi8(v, LEADS_AND_CONTINUATIONS(0xED, 0)));
    return _mm_movemask_epi8(shaped) == 0xFFFF && (_mm_movemask_epi8(narrower) & FIVE_LEADS) == 0;
}
#endif

/* The number of characters of UTF-8 `bytes`, valid as Python's strict decoder requires
 * (shortest forms, no surrogates, nothing above U+10FFFF), and in `*kind` the kind of str
 * that holds them (0 where all are ASCII: they are their own characters); -1 where they are
 * not valid. The kind is told by the largest lead byte: C2 and C3 lead the characters below
 * 256, F0 and above those beyond 65535. */
static Py_ssize_t utf8_characters(const unsigned char *bytes, Py_ssize_t size, int *kind)
{
    Py_ssize_t continuations = 0;
    unsigned top = 0;
    for (Py_ssize_t k = 0; k < size;) {
        unsigned lead = bytes[k];
        if (lead < 0x80) { /* (most text runs on in ASCII) */
            k = ascii_end(bytes, k + 1, size);
            continue;
        }
        if (plain_three(bytes, k, size)) { /* (a run of them, read in a loop of its own) */
            Py_ssize_t from = k;
            do {
                k += 3;
#if defined(__SSE2__)
                while (k + 16 <= size && five_plain_threes(bytes + k))
                    k += 15;
#endif
            } while (plain_three(bytes, k, size));
            top = lead > top ? lead : top; /* (the run's other leads tell the same kind) */
            continuations += (k - from) / 3 * 2;
            continue;
        }
        int more = UTF8_MORE[lead];
        if (more > 3 || size - k <= more || bytes[k + 1] < UTF8_LOW[lead] ||
            bytes[k + 1] > UTF8_HIGH[lead])
            return -1;
        if (more > 1 && ((bytes[k + 2] & 0xC0) != 0x80 ||
                         (more > 2 && (bytes[k + 3] & 0xC0) != 0x80)))
            return -1;
        top = lead > top ? lead : top;
        continuations += more;
        k += more + 1;
    }
    *kind = top == 0 ? 0 : top < 0xC4 ? PyUnicode_1BYTE_KIND
                       : top < 0xF0   ? PyUnicode_2BYTE_KIND
                                      : PyUnicode_4BYTE_KIND;
    return size - continuations;
}

/* ASCII bytes copied as `size` characters of `kind` (2 bytes: widened 16 at a time). */
static ALWAYS_INLINE void ascii_copied(const unsigned char *bytes, Py_ssize_t size, int kind,
                                       char *to)
{
    Py_ssize_t k = 0;
    if (kind == PyUnicode_1BYTE_KIND) {
        memcpy(to, bytes, (size_t)size);
        return;
    }
#if defined(__SSE2__) /* (x86: little-endian, as a character of two bytes is then) */
    for (; kind == PyUnicode_2BYTE_KIND && k + 16 <= size; k += 16) {
        __m128i block = _mm_loadu_si128((const __m128i *)(bytes + k)), zero = _mm_setzero_si128();
        _mm_storeu_si128((__m128i *)(to + 2 * k), _mm_unpacklo_epi8(block, zero));
        _mm_storeu_si128((__m128i *)(to + 2 * k + 16), _mm_unpackhi_epi8(block, zero));
    }
#endif
    for (; k < size; k++)
        PyUnicode_WRITE(kind, to, k, bytes[k]);
}

#if defined(SSSE3_DISPATCH)
/* Of valid UTF-8 `bytes` (`size` of them) that start with a character, the characters of the
 * groups of five of three bytes each at the start, written at `to` as 2-byte characters: how
 * many (a multiple of 5). Five at a time from one load of 16 bytes, shuffled into place
 * (SSSE3); in valid UTF-8, five leads of three bytes 3 apart are five such characters. */
__attribute__((target("ssse3"))) static Py_ssize_t threes_decoded(const unsigned char *bytes,
                                                                   Py_ssize_t size, Py_UCS2 *to)
{
    const __m128i leads = LEADS_AND_CONTINUATIONS(0xF0, 0), three = LEADS_AND_CONTINUATIONS(0xE0, 0);
    /* each character's 16 bits: its last two bytes (second in the high byte), its lead */
    const __m128i last_two = _mm_setr_epi8(2, 1, 5, 4, 8, 7, 11, 10, 14, 13, -1, -1, -1, -1, -1, -1);
    const __m128i lead = _mm_setr_epi8(-1, 0, -1, 3, -1, 6, -1, 9, -1, 12, -1, -1, -1, -1, -1, -1);
    Py_ssize_t k = 0, at = 0;
    for (; k + 16 <= size; k += 15, at += 5) {
        __m128i v = _mm_loadu_si128((const __m128i *)(bytes + k));
        __m128i shaped = _mm_cmpeq_epi8(_mm_and_si128(v, leads), three);
        if ((_mm_movemask_epi8(shaped) & FIVE_LEADS) != FIVE_LEADS)
            break;
        __m128i low = _mm_shuffle_epi8(v, last_two), high = _mm_shuffle_epi8(v, lead);
        __m128i code = _mm_or_si128(
            _mm_and_si128(_mm_slli_epi16(high, 4), _mm_set1_epi16((short)0xF000)),
            _mm_or_si128(_mm_and_si128(_mm_srli_epi16(low, 2), _mm_set1_epi16(0x0FC0)),
                         _mm_and_si128(low, _mm_set1_epi16(0x003F))));
        _mm_storel_epi64((__m128i *)(to + at), code); /* (the fifth alone: no write past it) */
        to[at + 4] = (Py_UCS2)_mm_extract_epi16(code, 4);
    }
    return at;
}
#endif

/* The characters of valid UTF-8 `bytes`, written at `to` as `kind` (each kind a loop of its
 * own: see char_at); a run of ASCII, as half the bytes of the lines that are not all ASCII
 * are, and a run of characters of three bytes, as CJK text is, each in a loop of its own. */
static ALWAYS_INLINE void utf8_decoded_as(const unsigned char *bytes, Py_ssize_t size, int kind,
                                          char *to)
{
    for (Py_ssize_t k = 0, at = 0; k < size;) {
        unsigned lead = bytes[k];
        if (lead < 0x80) { /* (a run of ASCII, copied in a loop of its own) */
            Py_ssize_t end = ascii_end(bytes, k + 1, size);
            ascii_copied(bytes + k, end - k, kind, to + at * kind);
            at += end - k, k = end;
            continue;
        }
        if (lead - 0xE0u < 0x10) { /* (three bytes, as most CJK is: a run in a loop of its own) */
#if defined(SSSE3_DISPATCH)
            if (kind == PyUnicode_2BYTE_KIND && has_ssse3) {
                Py_ssize_t five = threes_decoded(bytes + k, size - k, (Py_UCS2 *)to + at);
                k += 3 * five, at += five;
                if (k == size || bytes[k] - 0xE0u >= 0x10)
                    continue;
            }
#endif
            do {
                PyUnicode_WRITE(kind, to, at++,
                                (bytes[k] & 0x0F) << 12 | (bytes[k + 1] & 0x3F) << 6 |
                                    (bytes[k + 2] & 0x3F));
                k += 3;
            } while (k < size && bytes[k] - 0xE0u < 0x10);
            continue;
        }
        int more = UTF8_MORE[lead];
        Py_UCS4 code = (lead & (0x3F >> more)) << 6 | (bytes[k + 1] & 0x3F);
        if (more > 1)
            code = code << 6 | (bytes[k + 2] & 0x3F);
        if (more > 2)
            code = code << 6 | (bytes[k + 3] & 0x3F);
        PyUnicode_WRITE(kind, to, at++, code);
        k += more + 1;
    }
}

static void utf8_decoded(const unsigned char *bytes, Py_ssize_t size, int kind, char *to)
{
    if (kind == PyUnicode_1BYTE_KIND)
        utf8_decoded_as(bytes, size, PyUnicode_1BYTE_KIND, to);
    else if (kind == PyUnicode_2BYTE_KIND)
        utf8_decoded_as(bytes, size, PyUnicode_2BYTE_KIND, to);
    else
        utf8_decoded_as(bytes, size, PyUnicode_4BYTE_KIND, to);
}

/* Each line of the blocks as a str of its own would hold it: decoded from UTF-8 (`utf8`; an
 * ASCII line is its bytes), or copied as narrow as its characters allow where its block is
 * wider (one wide character makes a whole block wide), since the tokenizers run fastest on
 * narrow text. 0 with an exception (UnicodeDecodeError where a line is not valid UTF-8). */
static int narrowed_lines(Held *h, int utf8)
{
    /* First each line's characters and kind (0: no copy), then the copies. */
    Py_ssize_t texts = h->texts > 0 ? h->texts : 1, *characters = PyMem_Malloc((size_t)texts * sizeof(Py_ssize_t));
    unsigned char *kinds = PyMem_Malloc((size_t)texts);
    size_t room = 0;
    int done = characters != NULL && kinds != NULL;
    if (!done)
        PyErr_NoMemory();
    for (Py_ssize_t t = 0; done && t < h->texts; t++) {
        const Span *span = &h->spans[t];
        int kind;
        kinds[t] = 0;
        characters[t] = utf8 ? utf8_characters(span->data, span->size, &kind) : span->size;
        if (characters[t] < 0) { /* Python's decoder says what is wrong, and where */
            Py_XDECREF(PyUnicode_DecodeUTF8(span->data, span->size, "strict"));
            done = 0;
            break;
        }
        if (!utf8)
            kind = narrowest(span->kind, span->data, span->size);
        if (utf8 ? kind > 0 : kind < span->kind) {
            kinds[t] = (unsigned char)kind;
            room += (size_t)(characters[t] * kind) + 3; /* (room to align it: see below) */
        }
    }
    char *at = h->narrowed = done && room ? PyMem_Malloc(room) : NULL;
    if (done && room && at == NULL) {
        PyErr_NoMemory();
        done = 0;
    }
    for (Py_ssize_t t = 0; done && t < h->texts; t++) {
        Span *span = &h->spans[t];
        if (kinds[t] == 0)
            continue;
        /* A copy starts at a multiple of its kind's size, as a character is read whole. */
        at = h->narrowed + (((size_t)(at - h->narrowed) + kinds[t] - 1) / kinds[t]) * kinds[t];
        if (utf8)
            utf8_decoded(span->data, span->size, kinds[t], at);
        else
            for (Py_ssize_t k = 0; k < span->size; k++)
                PyUnicode_WRITE(kinds[t], at, k, PyUnicode_READ(span->kind, span->data, k));
        *span = (Span){at, characters[t], kinds[t], h->narrowed + room};
        at += characters[t] * kinds[t];
    }
    PyMem_Free(characters);
    PyMem_Free(kinds);
    return done;
}

/* The spans of the held texts: each held str whole, or (`blocks`) each line of the held
 * blocks, hypotheses first, then each segment's references, decoded where the blocks are
 * UTF-8 (`utf8`); 0 with an exception. */
static int spans_of(Held *h, int blocks, int utf8)
{
    Py_ssize_t streams = h->count - 1;
    if (blocks) {
        h->segments = lines_of(h->strs[0], NULL);
        for (Py_ssize_t k = 1; k <= streams; k++)
            if (lines_of(h->strs[k], NULL) != h->segments) {
                PyErr_Format(PyExc_ValueError, "reference block %zd has %zd lines, the hypotheses %zd",
                             k - 1, lines_of(h->strs[k], NULL), h->segments);
                return 0;
            }
        h->texts = h->segments * h->count;
        h->reference_counts = PyMem_Malloc((size_t)h->segments * sizeof(i64));
    }
    h->spans = PyMem_Malloc((size_t)(h->texts > 0 ? h->texts : 1) * sizeof(Span));
    Py_ssize_t *starts = blocks ? PyMem_Malloc((size_t)(h->segments + 1) * sizeof(Py_ssize_t)) : NULL;
    if (h->spans == NULL || (blocks && (starts == NULL || h->reference_counts == NULL))) {
        PyMem_Free(starts);
        PyErr_NoMemory();
        return 0;
    }
    for (Py_ssize_t b = 0; b < h->count; b++) {
        int kind;
        Py_ssize_t size;
        const char *data = block_data(h->strs[b], &kind, &size);
        if (!blocks) {
            h->spans[b] = (Span){data, size, kind, data + size * kind};
            continue;
        }
        lines_of(h->strs[b], starts);
        starts[h->segments] = size + 1; /* (after the last line's end) */
        for (Py_ssize_t line = 0; line < h->segments; line++) {
            Py_ssize_t at = b == 0 ? line : h->segments + line * streams + (b - 1);
            h->spans[at] = (Span){data + starts[line] * kind, starts[line + 1] - 1 - starts[line],
                                  kind, data + size * kind};
        }
    }
    for (Py_ssize_t s = 0; blocks && s < h->segments; s++)
        h->reference_counts[s] = streams;
    PyMem_Free(starts);
    return !blocks || narrowed_lines(h, utf8);
}

/* The ids of the held strs' tokens in `ids`, text t's from starts[t] to starts[t + 1]; 0
 * where memory ran out. Needs no GIL. */
static int intern_held(const Held *h, int tokenizer, Vocabulary *v, Texts *t, Ints *ids,
                       i64 *starts)
{
    int done = 1;
    starts[0] = 0;
    for (Py_ssize_t text = 0, at = 0; text < h->texts && done; text++) {
        if (tokenizer >= 0) {
            const Span *span = &h->spans[text];
            done = intern_text(v, t, span->kind, span->data, span->size, span->readable,
                               tokenizer, ids);
        }
        for (i64 k = 0; tokenizer < 0 && k < h->sizes[text] && done; k++, at++) {
            PyObject *token = h->strs[at];
            i64 id = intern_chars(v, PyUnicode_KIND(token), PyUnicode_DATA(token),
                                  PyUnicode_GET_LENGTH(token));
            done = id >= 0 && push_int(ids, id);
        }
        starts[text + 1] = ids->size;
    }
    return done;
}

/* What count_texts works in: a vocabulary, the ids and the room for the texts' numbers.
 * A few are kept between calls, taken and given back under the GIL, so that chunk after chunk
 * works in memory the process has touched already: with new memory for each chunk, the page
 * faults (glibc maps large blocks and unmaps them when freed) took a third of the time of a
 * process's first call. */
typedef struct {
    Vocabulary vocabulary;
    Ints ids, numbers;
    Texts texts;
} Scratch;

enum { KEPT_SCRATCH = 4, KEPT_SLOTS = 1 << 19 }; /* (a larger table is let go) */
static Scratch *kept[KEPT_SCRATCH];
static int kept_count;

static void free_scratch(Scratch *s)
{
    free_table(&s->vocabulary.table);
    free(s->ids.items);
    free(s->numbers.items);
    free_texts(&s->texts);
    free(s);
}

/* A kept scratch, or a new one; NULL where memory ran out. Needs the GIL. */
static Scratch *taken_scratch(void)
{
    if (kept_count > 0)
        return kept[--kept_count];
    Scratch *s = calloc(1, sizeof(Scratch));
    if (s != NULL && !new_table(&s->vocabulary.table)) {
        free(s);
        s = NULL;
    }
    return s;
}

/* The scratch kept for the next call (or freed). Needs the GIL. */
static void given_back(Scratch *s)
{
    if (kept_count < KEPT_SCRATCH && s->vocabulary.table.mask < KEPT_SLOTS)
        kept[kept_count++] = s;
    else
        free_scratch(s);
}

/* The vocabulary emptied, its room kept. */
static void emptied(Vocabulary *v)
{
    memset(v->table.slots, 0, ((size_t)v->table.mask + 1) * sizeof(Slot));
    v->table.count = 0;
    v->table.arena.size = 0;
    v->table.full = 0;
    v->size = 0;
}

/* Intern the held strs into the scratch's vocabulary, emptied, and count the segments into
 * `c` (whose `repeated` the caller frees), with each text's token count; 0 where memory ran
 * out. Needs no GIL. */
static int intern_and_count(const Held *h, int tokenizer, Py_ssize_t max_n, Scratch *s,
                            i64 *token_counts, i64 *singles, Counter *c)
{
    emptied(&s->vocabulary);
    s->ids.size = s->numbers.size = 0;
    if (!reserve_ints(&s->numbers, 2 * (h->texts + 1) + h->segments + 1))
        return 0;
    i64 *starts = s->numbers.items, *numbers = starts + h->texts + 1;
    i64 *offsets = numbers + h->texts + 1;
    if (!intern_held(h, tokenizer, &s->vocabulary, &s->texts, &s->ids, starts)) {
        c->failure = s->vocabulary.table.full ? VOCABULARY_FULL : OUT_OF_MEMORY;
        return 0;
    }
    for (Py_ssize_t t = 0; t < h->texts; t++) {
        numbers[t] = t;
        token_counts[t] = starts[t + 1] - starts[t];
    }
    offsets[0] = 0;
    for (Py_ssize_t k = 0; k < h->segments; k++)
        offsets[k + 1] = offsets[k] + h->reference_counts[k];
    c->token_ids = s->ids.items;
    c->text_starts = starts;
    c->hypothesis_texts = numbers;
    c->reference_texts = numbers + h->segments;
    c->reference_offsets = offsets;
    c->segments = h->segments;
    c->max_n = max_n;
    c->singles = singles;
    return count(c, s->vocabulary.size);
}

static PyObject *count_texts(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"hypotheses", "references", "tokenizer", "tokenize",
                               "lowercase", "max_n", NULL};
    PyObject *hypotheses, *references, *name, *tokenize;
    int lowercase;
    Py_ssize_t max_n;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOpn:count_texts", keywords, &hypotheses,
                                     &references, &name, &tokenize, &lowercase, &max_n))
        return NULL;
    if (max_n < 1) {
        PyErr_Format(PyExc_ValueError, "max_n must be at least 1, got %zd", max_n);
        return NULL;
    }
    int tokenizer = name == Py_None ? -1 : tokenizer_number(name);
    if (name != Py_None && tokenizer < 0)
        return NULL;
    if (lowercase && tokenizer < 0) {
        PyErr_SetString(PyExc_ValueError, "lowercase is for texts: it needs a tokenizer");
        return NULL;
    }
    Held h = {0};
    int blocks = PyUnicode_CheckExact(hypotheses) || PyBytes_CheckExact(hypotheses), utf8 = 0;
    if (blocks && tokenizer < 0) {
        PyErr_SetString(PyExc_ValueError, "blocks of lines are texts: they need a tokenizer");
        return NULL;
    }
    int plain = blocks ? hold_blocks(hypotheses, references, lowercase, &h, &utf8)
                       : hold(hypotheses, references, tokenizer < 0, &h);
    if (plain > 0 && lowercase && lowercased(&h) < 0)
        plain = -1;
    if (plain > 0 && tokenizer >= 0 && !spans_of(&h, blocks, utf8))
        plain = -1;
    if (plain <= 0) {
        let_go_held(&h);
        return plain < 0 ? NULL : Py_NewRef(Py_None);
    }
    Array token_counts = {0}, reference_counts = {0}, singles = {0};
    PyObject *result = NULL;
    Counter c = {0};
    int counted;
    Scratch *scratch = taken_scratch();
    if (scratch == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (new_zeros(h.texts, -1, "int64", &token_counts) < 0 ||
        new_zeros(h.segments, -1, "int64", &reference_counts) < 0 ||
        new_zeros(h.segments, max_n, "int64", &singles) < 0)
        goto done;
    if (h.segments > 0)
        memcpy(ints(&reference_counts), h.reference_counts, (size_t)h.segments * sizeof(i64));
    Py_BEGIN_ALLOW_THREADS
    counted = intern_and_count(&h, tokenizer, max_n, scratch, ints(&token_counts),
                               ints(&singles), &c);
    Py_END_ALLOW_THREADS
    PyObject *const arrays[3] = {token_counts.array, reference_counts.array, singles.array};
    result = counted_tuple(counted, &c, arrays, 3);
done:
    if (scratch != NULL)
        given_back(scratch);
    release(&token_counts);
    release(&reference_counts);
    release(&singles);
    let_go_held(&h);
    return result;
}
