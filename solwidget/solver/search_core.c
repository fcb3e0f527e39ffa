/* The compiled search: solver/search.py's ``_Search`` as a Python type, ``Search``, over the
 * loop of loop.h and a family's kernel (kernel.h). All the Python C-API code of the compiled
 * search is here, once: the type, its arguments and errors, the probes the tests compare
 * with the Python expanders (successors, key, score, dead), the KeyPool of pooled proofs and
 * the module. A kernel knows its family's positions, moves, keys and scores, and no Python.
 *
 * Search(family, rules, weights, depth_weight, explore, table_half, frontier_size, dead=None):
 * the search of the kernel named ``family`` (``kernels()`` lists them), on the rules its
 * family's native.py packed from the game (bytes) and the score's weights (a sequence of
 * the kernel's number of floats); ``dead``, a function of a packed position, is a dead-end
 * test asked in place of the kernel's (the tests hand one). solver/native_search.py drives
 * it. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "kernel.h"

/* ------------------------------------------------------------------ the kernels */

/* The build lists the kernels it compiles: KERNELS is KERNEL(freecell) KERNEL(...) ... */
#ifndef KERNELS
#define KERNELS
#endif
#define KERNEL(family) extern const Kernel family##_kernel;
KERNELS
#undef KERNEL
#define KERNEL(family) &family##_kernel,
static const Kernel *const kernels[] = {KERNELS NULL};
#undef KERNEL

static const Kernel *kernel_named(const char *name) {
    for (int i = 0; kernels[i]; i++)
        if (!strcmp(kernels[i]->name, name)) return kernels[i];
    return NULL;
}

/* ------------------------------------------------------------------ the pool of buffers */

/* The large buffers of finished searches are kept for the next ones, at most SPARE_BYTES:
 * a solver run deal after deal would otherwise have the kernel map and clear fresh pages
 * for every search, which costs about as much as the search itself. (Every call holds
 * the GIL, so the pool needs no lock.) */
#define SPARE_BYTES ((size_t)128 << 20)
#define SPARE_LEAST ((size_t)64 << 10)   /* smaller buffers go to malloc and free */
#define SPARES 64
static struct { void *p; size_t bytes; } spare[SPARES];
static int nspare;
static size_t spare_bytes;

/* A buffer of at least *bytes (the smallest spare that will do, else a new one); *bytes
 * becomes its size. A spare more than twice the size asked is not lent: an array takes the
 * room its next doubling would give it, at most, and a small array (a kind's bucket) never
 * holds the large buffer a table or a heap left behind. */
void *loop_pool_take(size_t *bytes) {
    int best = -1;
    if (*bytes < SPARE_LEAST) return malloc(*bytes);
    for (int i = 0; i < nspare; i++)
        if (spare[i].bytes >= *bytes && spare[i].bytes / 2 <= *bytes &&
            (best < 0 || spare[i].bytes < spare[best].bytes))
            best = i;
    if (best < 0) return malloc(*bytes);
    void *p = spare[best].p;
    *bytes = spare[best].bytes;
    spare_bytes -= *bytes;
    spare[best] = spare[--nspare];
    return p;
}

void loop_pool_give(void *p, size_t bytes) {
    if (!p) return;
    if (bytes >= SPARE_LEAST && nspare < SPARES && spare_bytes + bytes <= SPARE_BYTES) {
        spare[nspare].p = p; spare[nspare].bytes = bytes;
        nspare++; spare_bytes += bytes;
    } else free(p);
}


/* ------------------------------------------------------------------ KeyPool */

/* KeyPool: a set of bytes keys (add, in, len), kept as a KeySet. NativeSearch.pool puts two
 * in place of a pooled proof's two Python sets (_Closure's expanded and generated keys), so
 * that the C searches add and look up their keys without making a bytes object of each; a
 * Python _Search of the same portfolio uses them through these methods. */
typedef struct { PyObject_HEAD KeySet keys; } KeyPool;

static void KeyPool_dealloc(KeyPool *P) {
    keyset_free(&P->keys);
    Py_TYPE(P)->tp_free((PyObject *)P);
}

/* Runs ``f`` on the bytes key's bytes, copied with the 8 zeros hash_bytes reads past the
 * end: f's result, or -1 with an error set. */
static int with_key(KeyPool *P, PyObject *key, int (*f)(KeySet *, const uint8_t *, int, uint64_t)) {
    if (!PyBytes_Check(key)) { PyErr_SetString(PyExc_TypeError, "search_core: a key is bytes"); return -1; }
    Py_ssize_t n = PyBytes_GET_SIZE(key);
    if (n > KEY_MAX) { PyErr_SetString(PyExc_ValueError, "search_core: a key longer than it keeps"); return -1; }
    uint8_t small[256 + 8], *buf = n <= 256 ? small : PyMem_Malloc((size_t)n + 8);
    if (!buf) { PyErr_NoMemory(); return -1; }
    memcpy(buf, PyBytes_AS_STRING(key), (size_t)n);
    memset(buf + n, 0, 8);
    int r = f(&P->keys, buf, (int)n, hash_bytes(buf, (int)n));
    if (buf != small) PyMem_Free(buf);
    if (r < 0) PyErr_NoMemory();
    return r;
}

static int keyset_has_mut(KeySet *s, const uint8_t *k, int n, uint64_t h) { return keyset_has(s, k, n, h); }

static PyObject *KeyPool_add(KeyPool *P, PyObject *key) {
    if (with_key(P, key, keyset_add) < 0) return NULL;
    Py_RETURN_NONE;
}

static int KeyPool_contains(KeyPool *P, PyObject *key) { return with_key(P, key, keyset_has_mut); }

static Py_ssize_t KeyPool_len(KeyPool *P) { return (Py_ssize_t)P->keys.size; }

static PyMethodDef KeyPool_methods[] = {
    {"add", (PyCFunction)KeyPool_add, METH_O, "add(key): the bytes key added."},
    {NULL}
};

static PySequenceMethods KeyPool_sequence = {
    .sq_length = (lenfunc)KeyPool_len,
    .sq_contains = (objobjproc)KeyPool_contains,
};

static PyTypeObject KeyPoolType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "solwidget.solver.search_core.KeyPool",
    .tp_basicsize = sizeof(KeyPool),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A set of bytes keys (add, in, len) for a pooled proof.",
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)KeyPool_dealloc,
    .tp_methods = KeyPool_methods,
    .tp_as_sequence = &KeyPool_sequence,
};

/* Does ``big`` hold every key of ``keys``? */
static int holds_all(const KeySet *big, const KeySet *keys) {
    for (size_t j = 0; j < keys->cap; j++) {
        if (!keys->slots[j].hash) continue;
        const uint8_t *k = keys->arena.data + keys->slots[j].at;
        if (!keyset_has(big, k + 2, key_length(k), keys->slots[j].hash)) return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ the search */

typedef struct {
    PyObject_HEAD
    Loop loop;
    const Kernel *kernel;           /* NULL until set up */
    void *context;                  /* the kernel's */
    PyObject *pooled[2];            /* a pooled proof's two KeyPools, or NULL */
    PyObject *dead;                 /* the dead-end test asked in place of the kernel's, or NULL */
    uint8_t *slot;                  /* a position read from Python (slot_bytes) */
    uint8_t *key;                   /* a key made for Python (key_bytes) */
    uint8_t *moves;                 /* moves read from Python (most_moves moves) */
} Search;

/* The error of a kernel's or the loop's failure: the dead-end test's (called back), else
 * L->error's words, else out of memory. */
static void *failed(const Loop *L) {
    if (PyErr_Occurred()) return NULL;
    if (L->error) PyErr_SetString(PyExc_RuntimeError, L->error);
    else PyErr_NoMemory();
    return NULL;
}

static void unpool(Search *S) {
    loop_unpool(&S->loop);
    Py_CLEAR(S->pooled[0]);
    Py_CLEAR(S->pooled[1]);
}

static void free_all(Search *S) {
    loop_free_all(&S->loop);
    unpool(S);
    Py_CLEAR(S->dead);
    S->loop.dead_hook = NULL;
    if (S->kernel && S->kernel->release) S->kernel->release(S->context);
    PyMem_Free(S->context); PyMem_Free(S->slot); PyMem_Free(S->key); PyMem_Free(S->moves);
    S->context = NULL; S->slot = S->key = S->moves = NULL;
    S->kernel = NULL;
}

static void Search_dealloc(Search *S) {
    free_all(S);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

/* The weights: a sequence of ``n`` numbers, in ``out``. */
static int read_weights(PyObject *obj, int n, double *out) {
    PyObject *seq = PySequence_Fast(obj, "search_core: the weights are a sequence of numbers");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_ValueError, "search_core: %d weights, not %zd", n, PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (out[i] == -1.0 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
    }
    Py_DECREF(seq);
    return 0;
}

/* The Python dead-end test of a search (its ``dead``) asked of a slot's position, packed:
 * 1 dead, 0 not, -1 with its error. */
static int dead_called_back(void *search, const uint8_t *slot) {
    Search *S = search;
    uint8_t *buf = PyMem_Malloc(S->loop.slot_bytes);
    if (!buf) { PyErr_NoMemory(); return -1; }
    size_t n = S->kernel->write(S->context, slot, buf);
    PyObject *answer = PyObject_CallFunction(S->dead, "y#", (const char *)buf, (Py_ssize_t)n);
    PyMem_Free(buf);
    if (!answer) return -1;
    int dead = PyObject_IsTrue(answer);
    Py_DECREF(answer);
    return dead;
}

static int Search_init(Search *S, PyObject *args, PyObject *kw) {
    static char *names[] = {"family", "rules", "weights", "depth_weight", "explore", "table_half",
                            "frontier_size", "dead", NULL};
    const char *family;
    PyObject *rules, *weights, *dead = Py_None;
    double depth_weight, explore, w[64];
    Py_ssize_t table_half, frontier_size;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "sSOddnn|O", names, &family, &rules, &weights, &depth_weight,
                                     &explore, &table_half, &frontier_size, &dead))
        return -1;
    free_all(S);                                  /* a search set up again starts afresh */
    if (dead != Py_None && !PyCallable_Check(dead)) {
        PyErr_SetString(PyExc_TypeError, "search_core: dead must be callable or None");
        return -1;
    }
    const Kernel *k = kernel_named(family);
    if (!k) { PyErr_Format(PyExc_ValueError, "search_core: no kernel of the family '%s'", family); return -1; }
    if (read_weights(weights, k->weights, w)) return -1;
    void *context = PyMem_Calloc(1, k->context_bytes);
    if (!context) { PyErr_NoMemory(); return -1; }
    const char *refused = k->load(context, (const uint8_t *)PyBytes_AS_STRING(rules),
                                  (size_t)PyBytes_GET_SIZE(rules), w);
    if (refused) {
        if (k->release) k->release(context);
        PyMem_Free(context);
        PyErr_SetString(PyExc_ValueError, refused);
        return -1;
    }
    S->kernel = k;
    S->context = context;
    size_t slot_bytes = k->slot_bytes(context);
    S->slot = PyMem_Malloc(slot_bytes);
    S->key = PyMem_Malloc((size_t)k->key_bytes);
    S->moves = PyMem_Malloc((size_t)k->move_bytes * (size_t)k->most_moves);
    if (!S->slot || !S->key || !S->moves) { free_all(S); PyErr_NoMemory(); return -1; }
    loop_init(&S->loop, depth_weight, explore, table_half, frontier_size, slot_bytes, (size_t)k->move_bytes);
    if (dead != Py_None) {
        Py_INCREF(dead);
        S->dead = dead;
        S->loop.dead_hook = dead_called_back;
        S->loop.hook_arg = S;
    }
    return 0;
}

static int not_ready(const Search *S) {
    if (S->kernel) return 0;
    PyErr_SetString(PyExc_RuntimeError, "search_core: the search was not set up (Search(...))");
    return 1;
}

/* The position ``obj`` (bytes, as the family's Python packs it) in S->slot: 0, or -1 with an
 * error set. */
static int read_position(Search *S, PyObject *obj) {
    if (!PyBytes_Check(obj)) { PyErr_SetString(PyExc_TypeError, "search_core: a position is bytes"); return -1; }
    size_t n = (size_t)PyBytes_GET_SIZE(obj);
    if (n > S->loop.slot_bytes || S->kernel->read(S->context, (const uint8_t *)PyBytes_AS_STRING(obj), n, S->slot)) {
        PyErr_SetString(PyExc_ValueError, "search_core: a malformed position");
        return -1;
    }
    return 0;
}

/* The moves of ``obj``, bytes of the kernel's move_bytes a move (the moves that reached a
 * start), in S->moves; *n: how many. Else -1 with an error set. */
static int read_moves(Search *S, PyObject *obj, int *n) {
    const Kernel *k = S->kernel;
    if (!PyBytes_Check(obj)) { PyErr_SetString(PyExc_TypeError, "search_core: moves are bytes"); return -1; }
    Py_ssize_t size = PyBytes_GET_SIZE(obj);
    if (size % k->move_bytes || size > (Py_ssize_t)k->move_bytes * k->most_moves) {
        PyErr_Format(PyExc_ValueError, "search_core: moves are bytes, %d a move, at most %d", k->move_bytes,
                     k->most_moves);
        return -1;
    }
    *n = (int)(size / k->move_bytes);
    memcpy(S->moves, PyBytes_AS_STRING(obj), (size_t)size);
    const char *refused = k->check_moves ? k->check_moves(S->context, S->moves, *n) : NULL;
    if (refused) { PyErr_SetString(PyExc_ValueError, refused); return -1; }
    return 0;
}

/* seed(position, moves, depth=None): the start, reached by these moves (search.py's seed), at
 * ``depth`` (where a family's move may stand for more than one of the engine's), by default
 * the number of moves. */
static PyObject *Search_seed(Search *S, PyObject *args) {
    PyObject *position, *moves, *depth_obj = Py_None;
    int nm;
    if (!PyArg_ParseTuple(args, "OO|O", &position, &moves, &depth_obj) || not_ready(S)) return NULL;
    if (read_position(S, position) || read_moves(S, moves, &nm)) return NULL;
    uint32_t depth = (uint32_t)nm;
    if (depth_obj != Py_None) {
        unsigned long d = PyLong_AsUnsignedLong(depth_obj);
        if (PyErr_Occurred()) return NULL;
        if (d > 0xFFFFFFFEul) return PyErr_Format(PyExc_ValueError, "search_core: a depth below 2**32 - 1");
        depth = (uint32_t)d;
    }
    const Kernel *k = S->kernel;
    uint8_t *slot;
    S->loop.error = NULL;
    if (loop_seed_at(&S->loop, S->key, k->key(S->context, S->slot, S->key), S->moves, nm, depth,
                     k->score(S->context, S->slot), &slot))
        return failed(&S->loop);
    memcpy(slot, S->slot, S->loop.slot_bytes);
    Py_RETURN_NONE;
}

/* run(n, expanded, pool_after) -> (popped, expanded, won node or None, depth of the last
 * expanded): up to n pops, fewer if a win is found or the frontier runs empty; ``expanded``:
 * the whole portfolio's expansions so far, ``pool_after`` search.py's POOL_AFTER (pooled
 * searches skip each other's positions once the portfolio expanded that many). */
static PyObject *Search_run(Search *S, PyObject *args) {
    Py_ssize_t n, done = 0;
    long long before, pool_after;
    if (!PyArg_ParseTuple(args, "nLL", &n, &before, &pool_after) || not_ready(S)) return NULL;
    Loop *L = &S->loop;
    int64_t (*expand)(void *, Loop *, uint32_t *) = S->kernel->expand;
    L->portfolio_expanded = before;
    L->pool_after = pool_after;
    L->error = NULL;
    int64_t won = EXPANDED;
    uint32_t depth = 0, last = 0;
    while (done < n && L->waiting && won < 0) {
        if (L->nnodes >= L->node_mark && loop_compact(L, 1)) return PyErr_NoMemory();
        won = expand(S->context, L, &depth);
        if (won == FAILED) return failed(L);
        if (won != SKIPPED) last = depth;
        done++;
    }
    long long expanded = L->portfolio_expanded - before;
    if (won >= 0) return Py_BuildValue("nLLI", done, expanded, (long long)won, last);
    return Py_BuildValue("nLOI", done, expanded, Py_None, last);
}

/* A probe (``successors``): the position read, reached by ``nm`` moves, expanded once by a
 * fresh loop of the same kernel and rules, with no depth weight (a child's priority is its
 * score), no exploring, nothing evicted or trimmed: each key admitted once, as a new table
 * would. 0, or -1 with an error set. */
static int probe(Search *S, Loop *L, int nm, Bytes *asked, int dead_ends) {
    loop_init(L, 0.0, 0.0, LLONG_MAX, LLONG_MAX, S->loop.slot_bytes, S->loop.move_bytes);
    L->asked = asked;
    L->skip_dead_ends = !dead_ends;
    L->dead_hook = S->loop.dead_hook;
    L->hook_arg = S->loop.hook_arg;
    int64_t root = loop_new_node(L, NONE32, S->moves, nm, 0);
    uint8_t *slot = root < 0 ? NULL : loop_store(L, (uint32_t)root);
    if (!slot || loop_push(L, (Entry){0.0, -1, (uint32_t)root})) { PyErr_NoMemory(); return -1; }
    memcpy(slot, S->slot, L->slot_bytes);
    uint32_t depth;
    if (S->kernel->expand(S->context, L, &depth) == FAILED) { failed(L); return -1; }
    return 0;
}

/* A probe's child's score: its priority on the frontier, 0 for a won child (never pushed). */
static double probe_score(const Loop *L, size_t node) {
    for (size_t h = 0; h < L->nheap; h++)
        if (L->heap[h].node == node) return L->heap[h].prio;
    return 0.0;
}

/* The keys noted in ``asked``, as a list of bytes. */
static PyObject *keys_asked(const Bytes *asked) {
    PyObject *out = PyList_New(0);
    for (size_t at = 0; out && at < asked->size;) {
        int n = key_length(asked->data + at);
        PyObject *key = PyBytes_FromStringAndSize((const char *)asked->data + at + 2, n);
        if (!key || PyList_Append(out, key)) Py_CLEAR(out);
        Py_XDECREF(key);
        at += (size_t)n + 2;
    }
    return out;
}

/* successors(position, came_by=b"", dead_ends=True) -> ([(moves, child position or None if
 * won, score)], [keys asked]): the position expanded (``probe``), to compare with the
 * family's Python expander, and every key the expansion asked the table about, in order;
 * with ``dead_ends`` False, the kernel's dead-end test is not asked. */
static PyObject *Search_successors(Search *S, PyObject *args, PyObject *kw) {
    static char *names[] = {"position", "came_by", "dead_ends", NULL};
    PyObject *position, *moves = NULL;
    int nm = 0, dead_ends = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|Op", names, &position, &moves, &dead_ends) || not_ready(S))
        return NULL;
    if (read_position(S, position) || (moves && read_moves(S, moves, &nm))) return NULL;
    Loop L;
    Bytes asked = {0};
    PyObject *children = NULL, *keys = NULL, *result = NULL;
    uint8_t *buf = NULL;
    if (probe(S, &L, nm, &asked, dead_ends)) goto done;
    buf = PyMem_Malloc(L.slot_bytes);
    children = buf ? PyList_New(0) : PyErr_NoMemory();
    for (size_t i = 1; children && i < L.nnodes; i++) {
        const Node *c = &L.nodes[i];
        PyObject *child;
        if (c->slot == NONE32) child = (Py_INCREF(Py_None), Py_None);    /* won */
        else child = PyBytes_FromStringAndSize((char *)buf, (Py_ssize_t)S->kernel->write(S->context, loop_position(&L, (uint32_t)i), buf));
        PyObject *item = child ? Py_BuildValue("y#Nd", L.moves.data + c->moves, (Py_ssize_t)(L.move_bytes * c->nmoves),
                                               child, probe_score(&L, i)) : NULL;
        if (!item || PyList_Append(children, item)) Py_CLEAR(children);
        Py_XDECREF(item);
    }
    keys = children ? keys_asked(&asked) : NULL;
    if (keys) result = PyTuple_Pack(2, children, keys);
done:
    Py_XDECREF(children); Py_XDECREF(keys);
    PyMem_Free(buf);
    pool_give(asked.data, asked.cap);
    loop_free_all(&L);
    return result;
}

/* key(position) -> bytes: the key the search's table holds. */
static PyObject *Search_key(Search *S, PyObject *position) {
    if (not_ready(S) || read_position(S, position)) return NULL;
    int n = S->kernel->key(S->context, S->slot, S->key);
    return PyBytes_FromStringAndSize((char *)S->key, n);
}

/* score(position) -> float: the position's score (0 when won). */
static PyObject *Search_score(Search *S, PyObject *position) {
    if (not_ready(S) || read_position(S, position)) return NULL;
    return PyFloat_FromDouble(S->kernel->score(S->context, S->slot));
}

/* dead(position) -> bool: does the kernel's dead-end test find the position dead (False for a
 * kernel without one)? Its own, even where a test is called back in its place. */
static PyObject *Search_dead(Search *S, PyObject *position) {
    if (not_ready(S) || read_position(S, position)) return NULL;
    return PyBool_FromLong(S->kernel->dead && S->kernel->dead(S->context, S->slot));
}

/* line(node) -> bytes: the moves from the start to the node, move_bytes a move. */
static PyObject *Search_line(Search *S, PyObject *args) {
    long long node;
    Loop *L = &S->loop;
    if (!PyArg_ParseTuple(args, "L", &node)) return NULL;
    if (node < 0 || (size_t)node >= L->nnodes) { PyErr_SetString(PyExc_IndexError, "search_core: no such node"); return NULL; }
    size_t total = 0;
    for (uint32_t i = (uint32_t)node; i != NONE32; i = L->nodes[i].parent) total += L->move_bytes * L->nodes[i].nmoves;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)total);
    if (!out) return NULL;
    uint8_t *b = (uint8_t *)PyBytes_AS_STRING(out) + total;
    for (uint32_t i = (uint32_t)node; i != NONE32; i = L->nodes[i].parent) {
        size_t size = L->move_bytes * L->nodes[i].nmoves;
        b -= size;
        memcpy(b, L->moves.data + L->nodes[i].moves, size);
    }
    return out;
}

/* pool(expanded, generated) or pool(None, None): take part in a pooled proof (_Closure's
 * two sets of keys, made KeyPools), or leave it. */
static PyObject *Search_pool(Search *S, PyObject *args) {
    PyObject *expanded, *generated;
    Loop *L = &S->loop;
    if (!PyArg_ParseTuple(args, "OO", &expanded, &generated)) return NULL;
    if ((expanded == Py_None) != (generated == Py_None) ||
        (expanded != Py_None && (!PyObject_TypeCheck(expanded, &KeyPoolType) ||
                                 !PyObject_TypeCheck(generated, &KeyPoolType)))) {
        PyErr_SetString(PyExc_TypeError, "search_core: pool(expanded, generated) takes two KeyPools or two Nones");
        return NULL;
    }
    unpool(S);
    if (expanded != Py_None) {
        Py_INCREF(expanded); S->pooled[0] = expanded; L->expanded = &((KeyPool *)expanded)->keys;
        Py_INCREF(generated); S->pooled[1] = generated; L->generated_keys = &((KeyPool *)generated)->keys;
        L->pooled_all = holds_all(L->generated_keys, &L->table) && holds_all(L->generated_keys, &L->old_table);
    }
    Py_RETURN_NONE;
}

/* release(): give back the frontier's, tables' and positions' memory, and the nodes' but
 * the best line's (still asked for). */
static PyObject *Search_release(Search *S, PyObject *unused) {
    Loop *L = &S->loop;
    loop_free_frontier_and_tables(L);
    if (loop_compact(L, 0) || loop_shrink_nodes(L)) return PyErr_NoMemory();
    for (size_t i = 0; i < L->nnodes; i++) L->nodes[i].slot = NONE32;
    Py_RETURN_NONE;
}

/* trim(n): _Search.trim, the ``n`` best waiting entries kept. */
static PyObject *Search_trim(Search *S, PyObject *args) {
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "n", &n)) return NULL;
    if (n < 0) return PyErr_Format(PyExc_ValueError, "search_core: trim keeps 0 or more entries, not %zd", n);
    if (keep(&S->loop, (size_t)n)) return PyErr_NoMemory();
    S->loop.complete = 0;
    Py_RETURN_NONE;
}

/* hold(): from now on, keep the positions skipped (_Search.hold). */
static PyObject *Search_hold(Search *S, PyObject *unused) {
    S->loop.hold = 1;
    Py_RETURN_NONE;
}

/* alone(table_size): _Search.go_alone, out of the pooled proof: the positions held back on
 * the frontier, none skipped any more, the tables ``table_size`` keys in two generations. */
static PyObject *Search_alone(Search *S, PyObject *args) {
    Py_ssize_t table_size;
    Loop *L = &S->loop;
    if (!PyArg_ParseTuple(args, "n", &table_size)) return NULL;
    if (table_size < 1) return PyErr_Format(PyExc_ValueError, "search_core: alone takes a table of 1 key or more, not %zd", table_size);
    if (keep_with(L, (size_t)-1, L->held, L->nheld)) return PyErr_NoMemory();
    GIVE(L->held, L->cheld, sizeof(Entry)); L->nheld = 0;
    L->hold = 0;
    L->skipped = 0;
    L->table_half = (size_t)table_size / 2;
    unpool(S);
    Py_RETURN_NONE;
}

/* compact_at(n): the nodes compacted once there are ``n`` (NODES_LEAST by default; after a
 * compaction, twice the live ones if that is more): the tests make it small, so that their
 * searches compact often. */
static PyObject *Search_compact_at(Search *S, PyObject *args) {
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "n", &n)) return NULL;
    if (n < 1) return PyErr_Format(PyExc_ValueError, "search_core: compact_at takes 1 or more nodes, not %zd", n);
    S->loop.nodes_least = (size_t)n;
    S->loop.node_mark = (size_t)n;
    Py_RETURN_NONE;
}

static PyObject *Search_waiting(Search *S, void *c) { return PyLong_FromSize_t(S->loop.waiting); }
static PyObject *Search_generated(Search *S, void *c) { return PyLong_FromLongLong(S->loop.generated); }
static PyObject *Search_complete(Search *S, void *c) { return PyBool_FromLong(S->loop.complete); }
static PyObject *Search_skipped(Search *S, void *c) { return PyLong_FromLongLong(S->loop.skipped); }
static PyObject *Search_frontier_size(Search *S, void *c) { return PyLong_FromSize_t(S->loop.frontier_size); }

/* A count set from Python (``value``, not deleted) in *out: 0, or -1 with an error that says
 * ``what``. */
static int set_count(PyObject *value, size_t *out, const char *what) {
    Py_ssize_t n = value ? PyLong_AsSsize_t(value) : -1;
    if (n < 0) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "search_core: %s", what);
        return -1;
    }
    *out = (size_t)n;
    return 0;
}

/* The frontier's size changed (_Search.frontier_size): it holds at most this many positions
 * after an expansion from now on. */
static int Search_set_frontier_size(Search *S, PyObject *value, void *c) {
    return set_count(value, &S->loop.frontier_size, "a frontier of 0 or more positions");
}
static PyObject *Search_stale_most(Search *S, void *c) { return PyLong_FromSize_t(S->loop.stale_most); }

/* frontier.py's STALE_MOST: an exploring frontier sweeps its stale copies out once there are
 * more. */
static int Search_set_stale_most(Search *S, PyObject *value, void *c) {
    return set_count(value, &S->loop.stale_most, "stale_most is 0 or more");
}
static PyObject *Search_best_score(Search *S, void *c) {
    if (S->loop.best_node < 0) Py_RETURN_NONE;
    return PyFloat_FromDouble(S->loop.best_score);
}
static PyObject *Search_best_node(Search *S, void *c) {
    if (S->loop.best_node < 0) Py_RETURN_NONE;
    return PyLong_FromLongLong(S->loop.best_node);
}
static PyObject *Search_nodes(Search *S, void *c) { return PyLong_FromSize_t(S->loop.nnodes); }
static PyObject *Search_node_bytes(Search *S, void *c) {
    return PyLong_FromSize_t(S->loop.cnodes * sizeof(Node) + S->loop.moves.cap);
}
static PyObject *Search_bucket_bytes(Search *S, void *c) {
    return PyLong_FromSize_t(loop_bucket_bytes(&S->loop));
}
static PyObject *Search_keys(Search *S, void *c) {
    return PyLong_FromSize_t(S->loop.table.size + S->loop.old_table.size);
}
static PyObject *Search_key_arena(Search *S, void *c) {
    return PyLong_FromSize_t(S->loop.table.arena.size + S->loop.old_table.arena.size);
}
static PyObject *Search_table_half(Search *S, void *c) { return PyLong_FromSize_t(S->loop.table_half); }

/* The keys a generation holds from now on (_Search.table_size): a newer one that holds as
 * many already gives way at its next key. */
static int Search_set_table_half(Search *S, PyObject *value, void *c) {
    return set_count(value, &S->loop.table_half, "a table of 0 or more keys a generation");
}
static PyObject *Search_family(Search *S, void *c) {
    if (!S->kernel) Py_RETURN_NONE;
    return PyUnicode_FromString(S->kernel->name);
}

static PyGetSetDef Search_getset[] = {
    {"family", (getter)Search_family, NULL, "the kernel's family, or None before it is set up", NULL},
    {"waiting", (getter)Search_waiting, NULL, "positions in the frontier", NULL},
    {"generated", (getter)Search_generated, NULL, "successors asked about", NULL},
    {"complete", (getter)Search_complete, NULL, "False once the frontier was trimmed", NULL},
    {"skipped", (getter)Search_skipped, NULL, "positions left to another pooled search", NULL},
    {"frontier_size", (getter)Search_frontier_size, (setter)Search_set_frontier_size,
     "positions the frontier holds at most after an expansion", NULL},
    {"stale_most", (getter)Search_stale_most, (setter)Search_set_stale_most,
     "stale frontier copies kept at most, before a sweep (frontier.STALE_MOST)", NULL},
    {"best_score", (getter)Search_best_score, NULL, "the best score generated, or None", NULL},
    {"best_node", (getter)Search_best_node, NULL, "the node of the best score, or None", NULL},
    {"nodes", (getter)Search_nodes, NULL, "search nodes kept (live, and dead since the last compaction)", NULL},
    {"node_bytes", (getter)Search_node_bytes, NULL, "bytes the search nodes and their moves hold", NULL},
    {"bucket_bytes", (getter)Search_bucket_bytes, NULL,
     "bytes the buckets of an exploring frontier hold (its entries by kind)", NULL},
    {"keys", (getter)Search_keys, NULL, "keys the tables hold, both generations", NULL},
    {"key_arena", (getter)Search_key_arena, NULL, "bytes of those keys, two more each for its length", NULL},
    {"table_half", (getter)Search_table_half, (setter)Search_set_table_half,
     "keys a generation of the tables holds (the older one is dropped when the newer has as many)", NULL},
    {NULL}
};

static PyMethodDef Search_methods[] = {
    {"seed", (PyCFunction)Search_seed, METH_VARARGS, "seed(position, moves, depth=None): the start position."},
    {"run", (PyCFunction)Search_run, METH_VARARGS,
     "run(n, expanded, pool_after) -> (popped, expanded, won node or None, last depth)."},
    {"line", (PyCFunction)Search_line, METH_VARARGS, "line(node) -> the moves to it, as the kernel's bytes."},
    {"pool", (PyCFunction)Search_pool, METH_VARARGS, "pool(expanded, generated): take part in a pooled proof."},
    {"successors", (PyCFunction)(void (*)(void))Search_successors, METH_VARARGS | METH_KEYWORDS,
     "successors(position, came_by=b'', dead_ends=True) -> ([(moves, child, score)], [keys asked])."},
    {"key", (PyCFunction)Search_key, METH_O, "key(position) -> the table's key."},
    {"score", (PyCFunction)Search_score, METH_O, "score(position) -> the position's score."},
    {"dead", (PyCFunction)Search_dead, METH_O, "dead(position) -> does the kernel find it dead?"},
    {"release", (PyCFunction)Search_release, METH_NOARGS, "release(): free the frontier and tables."},
    {"trim", (PyCFunction)Search_trim, METH_VARARGS, "trim(n): keep the n best waiting entries."},
    {"hold", (PyCFunction)Search_hold, METH_NOARGS, "hold(): keep the positions skipped from now on."},
    {"alone", (PyCFunction)Search_alone, METH_VARARGS,
     "alone(table_size): go on alone: the held positions back, no pool, tables of that size."},
    {"compact_at", (PyCFunction)Search_compact_at, METH_VARARGS,
     "compact_at(n): recycle the dead nodes once there are n nodes (twice the live ones at least)."},
    {NULL}
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "solwidget.solver.search_core.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One best-first search of a family's kernel (see the module's source).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

/* ------------------------------------------------------------------ the module */

/* random(n) -> the first n of random() and randrange(k) for k = 1..n, from Random(0): the
 * tests compare them with Python's. */
static PyObject *core_random(PyObject *self, PyObject *args) {
    int n;
    if (!PyArg_ParseTuple(args, "i", &n)) return NULL;
    Twister r;
    mt_seed_zero(&r);
    PyObject *out = PyList_New(0);
    for (int i = 1; out && i <= n; i++) {
        PyObject *x = PyFloat_FromDouble(mt_random(&r)), *y = PyLong_FromUnsignedLong(mt_below(&r, (uint32_t)i));
        if (!x || !y || PyList_Append(out, x) || PyList_Append(out, y)) Py_CLEAR(out);
        Py_XDECREF(x); Py_XDECREF(y);
    }
    return out;
}

/* kernels() -> the families whose kernels are built in. */
static PyObject *core_kernels(PyObject *self, PyObject *unused) {
    PyObject *out = PyList_New(0);
    for (int i = 0; out && kernels[i]; i++) {
        PyObject *name = PyUnicode_FromString(kernels[i]->name);
        if (!name || PyList_Append(out, name)) Py_CLEAR(out);
        Py_XDECREF(name);
    }
    return out;
}

/* limits(family) -> {name: value}: the bounds of the family's kernel, and its sizes: the
 * bytes of a move, the moves that may reach a start, the weights of its score. */
static PyObject *core_limits(PyObject *self, PyObject *args) {
    const char *family;
    if (!PyArg_ParseTuple(args, "s", &family)) return NULL;
    const Kernel *k = kernel_named(family);
    if (!k) return PyErr_Format(PyExc_ValueError, "search_core: no kernel of the family '%s'", family);
    PyObject *out = Py_BuildValue("{sisisi}", "MOVE_BYTES", k->move_bytes, "MOST_MOVES", k->most_moves,
                                  "WEIGHTS", k->weights);
    for (const KernelLimit *l = k->limits; out && l && l->name; l++) {
        PyObject *value = PyLong_FromLong(l->value);
        if (!value || PyDict_SetItemString(out, l->name, value)) Py_CLEAR(out);
        Py_XDECREF(value);
    }
    return out;
}

static PyMethodDef core_methods[] = {
    {"random", core_random, METH_VARARGS, "random(n): Random(0)'s random() and randrange(k), k = 1..n."},
    {"kernels", core_kernels, METH_NOARGS, "kernels(): the families whose kernels are built in."},
    {"limits", core_limits, METH_VARARGS, "limits(family): the bounds of the family's kernel, by name."},
    {NULL}
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "search_core",
    "The compiled search of every family with a kernel (see native_search.py).", -1, core_methods
};

static int add_type(PyObject *m, const char *name, PyTypeObject *type) {
    if (PyType_Ready(type) < 0) return -1;
    Py_INCREF(type);
    if (PyModule_AddObject(m, name, (PyObject *)type) < 0) { Py_DECREF(type); return -1; }
    return 0;
}

PyMODINIT_FUNC PyInit_search_core(void) {
    PyObject *m = PyModule_Create(&core_module);
    if (m && (add_type(m, "Search", &SearchType) || add_type(m, "KeyPool", &KeyPoolType))) Py_CLEAR(m);
    return m;
}
