/* The family-free half of a best-first search in C: solver/search.py's ``_Search`` loop
 * (frontier, transposition tables, search nodes, exploring, pooled proofs) without a game.
 *
 * A family's search (games/<family>/search_core.c) embeds a ``Loop`` in its Python type and
 * adds what only it knows: how a position is encoded in a slot of ``slot`` bytes, its
 * successors, keys and scores. It defines MOVE_BYTES, the bytes of one move as its nodes keep
 * them, before it includes this file. Each family's tests hold the whole, loop and family,
 * to the Python search expansion for expansion (tests/test_native*.py).
 *
 * What makes the C loop the Python one, step for step:
 * - the frontier is a binary heap on (priority, order), order counting down from 0 at each
 *   push, so that ties go to the newest position as in Frontier's heapq; with ``explore`` a
 *   draw of the same Mersenne Twister as Python's random.Random(0) picks the same kinds
 *   (frontier.py: the rounded priority and the depth) and entries as Frontier does;
 * - ``loop_admit`` is ``_Search.admit``: two generations of ``table_half`` keys each;
 * - a priority is ``value + depth_weight * depth`` rounded as Python rounds it
 *   (``loop_priority``), for any depth weight;
 * - a trim keeps the best ``frontier_size / 2`` entries as ``Frontier.keep`` does;
 * - with a pooled proof (``_Closure``, whose two sets of keys are KeyPools, this file's set
 *   of bytes keys, holding the same bytes keys as the Python expanders make) every key
 *   admitted is among ``generated``, and a popped position is skipped when another search
 *   expanded it, past search.py's POOL_AFTER expansions of the whole portfolio (handed to
 *   ``run``), as ``_Search.expand_next`` does.
 *
 * A family defines LOOP_MODULE, its module's dotted name, too: the KeyPool type is named in
 * it, and the family's module init calls ``loop_add_types``. */

#ifndef SOLWIDGET_SEARCH_LOOP_H
#define SOLWIDGET_SEARCH_LOOP_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef MOVE_BYTES
#error "a family defines MOVE_BYTES before it includes search_loop.h"
#endif
#ifndef LOOP_MODULE
#error "a family defines LOOP_MODULE (its module's dotted name) before it includes search_loop.h"
#endif

#define NONE32 0xFFFFFFFFu

/* ------------------------------------------------------------------ Mersenne Twister */
/* MT19937 as Python's random module runs it: Random(0) seeds it by init_by_array([0]),
 * random() takes 53 bits of two words, randrange(n) takes bit_length(n) bits of a word
 * until they fall below n. */

typedef struct { uint32_t mt[624]; int i; } Twister;

static void mt_init(Twister *r, uint32_t s) {
    r->mt[0] = s;
    for (int i = 1; i < 624; i++)
        r->mt[i] = 1812433253u * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
    r->i = 624;
}

static void mt_seed_zero(Twister *r) {            /* init_by_array with the key [0] */
    mt_init(r, 19650218u);
    uint32_t *mt = r->mt;
    int i = 1, j = 0;
    for (int k = 624; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + 0u + (uint32_t)j;
        i++; j = 0;                                /* key length 1 */
        if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    for (int k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000u;
}

static uint32_t mt_next(Twister *r) {
    uint32_t *mt = r->mt, y;
    if (r->i >= 624) {
        int k;
        for (k = 0; k < 624; k++) {
            y = (mt[k] & 0x80000000u) | (mt[(k + 1) % 624] & 0x7fffffffu);
            mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        }
        r->i = 0;
    }
    y = mt[r->i++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

static double mt_random(Twister *r) {
    uint32_t a = mt_next(r) >> 5, b = mt_next(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

static uint32_t mt_below(Twister *r, uint32_t n) {   /* n >= 1, n < 2^32 */
    int k = 0;
    while (k < 32 && (n >> k)) k++;
    uint32_t x;
    do x = mt_next(r) >> (32 - k); while (x >= n);
    return x;
}


/* ------------------------------------------------------------------ memory */

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
 * becomes its size. */
static void *pool_take(size_t *bytes) {
    int best = -1;
    if (*bytes < SPARE_LEAST) return malloc(*bytes);
    for (int i = 0; i < nspare; i++)
        if (spare[i].bytes >= *bytes && (best < 0 || spare[i].bytes < spare[best].bytes)) best = i;
    if (best < 0) return malloc(*bytes);
    void *p = spare[best].p;
    *bytes = spare[best].bytes;
    spare_bytes -= *bytes;
    spare[best] = spare[--nspare];
    return p;
}

static void pool_give(void *p, size_t bytes) {
    if (!p) return;
    if (bytes >= SPARE_LEAST && nspare < SPARES && spare_bytes + bytes <= SPARE_BYTES) {
        spare[nspare].p = p; spare[nspare].bytes = bytes;
        nspare++; spare_bytes += bytes;
    } else free(p);
}

/* Room for ``need`` items of ``unit`` bytes in *p (``*cap`` items now), doubling. */
static int grow(void **p, size_t *cap, size_t need, size_t unit) {
    if (need <= *cap) return 0;
    size_t bytes = *cap ? *cap * unit : 256;
    while (bytes < need * unit) bytes *= 2;
    void *q = pool_take(&bytes);
    if (!q) return -1;
    if (*cap) memcpy(q, *p, *cap * unit);
    pool_give(*p, *cap * unit);
    *p = q; *cap = bytes / unit;
    return 0;
}

#define GIVE(p, cap, unit) (pool_give((p), (cap) * (unit)), (p) = NULL, (cap) = 0)

typedef struct { uint8_t *data; size_t size, cap; } Bytes;

static int bytes_reserve(Bytes *b, size_t more) {
    return grow((void **)&b->data, &b->cap, b->size + more, 1);
}

/* A set of keys: open addressing on a 64-bit hash, the keys in an arena (length first, in
 * two bytes: a key is at most KEY_MAX bytes). A slot holds a key's hash and its place in
 * the arena together: one cache line a look-up, where two arrays cost two misses a key
 * seen again. */
#define KEY_MAX 0xFFFF
typedef struct { uint64_t hash; uint32_t at, unused; } KeySlot;
typedef struct { KeySlot *slots; size_t cap, size; Bytes arena; } KeySet;

/* A key's hash, eight bytes at a time: the key's buffer is zero past its end (KEYBUF). */
static uint64_t hash_bytes(const uint8_t *k, int n) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)n, w;
    for (int i = 0; i < n; i += 8) {
        memcpy(&w, k + i, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    h *= 0x94D049BB133111EBull;
    return (h ^ (h >> 29)) | 1;                     /* 0 marks an empty slot */
}

static inline int key_length(const uint8_t *there) { return there[0] << 8 | there[1]; }

static void keyset_free(KeySet *s) {
    pool_give(s->slots, s->cap * sizeof *s->slots);
    pool_give(s->arena.data, s->arena.cap);
    memset(s, 0, sizeof *s);
}

static int keyset_grow(KeySet *s) {
    size_t cap = s->cap ? s->cap * 2 : 1024, bytes = cap * sizeof(KeySlot);
    KeySlot *slots = pool_take(&bytes);
    if (!slots) return -1;
    memset(slots, 0, cap * sizeof *slots);
    for (size_t i = 0; i < s->cap; i++) {
        if (!s->slots[i].hash) continue;
        size_t j = s->slots[i].hash & (cap - 1);
        while (slots[j].hash) j = (j + 1) & (cap - 1);
        slots[j] = s->slots[i];
    }
    pool_give(s->slots, s->cap * sizeof *s->slots);
    s->slots = slots; s->cap = cap;
    return 0;
}

/* Is slot j the key's? */
static inline int keyset_at(const KeySet *s, size_t j, const uint8_t *k, int n, uint64_t h) {
    if (s->slots[j].hash != h) return 0;
    const uint8_t *there = s->arena.data + s->slots[j].at;
    return key_length(there) == n && !memcmp(there + 2, k, n);
}

static int keyset_has(const KeySet *s, const uint8_t *k, int n, uint64_t h) {
    if (!s->size) return 0;
    for (size_t j = h & (s->cap - 1); s->slots[j].hash; j = (j + 1) & (s->cap - 1))
        if (keyset_at(s, j, k, n, h)) return 1;
    return 0;
}

/* Adds the key; 1 if it was new, 0 if there, -1 out of memory. */
static int keyset_add(KeySet *s, const uint8_t *k, int n, uint64_t h) {
    if ((s->size + 1) * 2 > s->cap && keyset_grow(s)) return -1;
    size_t j = h & (s->cap - 1);
    for (; s->slots[j].hash; j = (j + 1) & (s->cap - 1))
        if (keyset_at(s, j, k, n, h)) return 0;
    if (bytes_reserve(&s->arena, (size_t)n + 2) || s->arena.size + n + 2 > NONE32) return -1;
    s->slots[j].hash = h;
    s->slots[j].at = (uint32_t)s->arena.size;
    s->arena.data[s->arena.size] = (uint8_t)(n >> 8);
    s->arena.data[s->arena.size + 1] = (uint8_t)n;
    memcpy(s->arena.data + s->arena.size + 2, k, n);
    s->arena.size += (size_t)n + 2;
    s->size++;
    return 1;
}

/* A search node: how it was reached (search.py's (parent, moves, depth)). */
typedef struct { uint32_t parent, moves, depth, slot, nmoves; } Node;   /* nmoves moves of MOVE_BYTES */
#define NODES_LEAST ((size_t)1 << 20)   /* nodes made before the dead ones are recycled */
typedef struct { double prio; int64_t order; uint32_t node; } Entry;
typedef struct { Entry *items; size_t size, cap; int listed; } Bucket;

/* A frontier priority as search.py makes it, ``value + depth_weight * depth``: one product
 * and one sum, each rounded to a double as Python rounds it. The product goes through a
 * volatile so that no compiler fuses the two into one multiply-add (rounded once, it could
 * differ in the last bit): the depth weight may then be any double, as a portfolio's 0.2
 * is, and the priority is still Python's to the last bit. */
static inline double loop_priority(double value, double depth_weight, uint32_t depth) {
    volatile double product = depth_weight * depth;
    return value + product;
}

static int entry_less(const Entry *a, const Entry *b) {
    return a->prio < b->prio || (a->prio == b->prio && a->order < b->order);
}

static int cmp_entry(const void *a, const void *b) {
    return entry_less(a, b) ? -1 : entry_less(b, a) ? 1 : 0;
}


/* ------------------------------------------------------------------ the loop */

typedef struct {
    double depth_weight, explore;
    size_t table_half, frontier_size;
    size_t slot_bytes;                  /* an encoded position, at most (the family's) */
    KeySet table, old_table;
    Node *nodes; size_t nnodes, cnodes;
    Bytes moves;                        /* MOVE_BYTES a move */
    uint8_t *slots; size_t nslots, cslots;
    uint32_t *free_slots; size_t nfree, cfree;
    Entry *heap; size_t nheap, cheap;
    size_t waiting;
    int64_t order;
    long long generated;
    int complete;
    double best_score; int64_t best_node;
    Twister rng;
    Bucket *buckets; size_t nbuckets, cbuckets;
    uint64_t *kind_key; uint32_t *kind_bucket; size_t kind_cap, kind_size;
    uint32_t *types; size_t ntypes, ctypes;
    uint8_t *taken; size_t ctaken;
    /* a pooled proof: the _Closure's two KeyPools (``pooled`` holds the Python objects),
     * or NULL; pooled_all: every key in the tables is among ``generated_keys`` */
    KeySet *expanded, *generated_keys;
    PyObject *pooled[2];
    int pooled_all;
    long long portfolio_expanded;       /* the whole portfolio's expansions */
    long long pool_after;               /* search.py's POOL_AFTER, handed to run */
    long long skipped;                  /* positions left to the search that expanded them */
    /* hold: keep the positions skipped (``held``), to take them back when the search goes on
     * alone (``loop_alone``) */
    int hold;
    Entry *held; size_t nheld, cheld;
    size_t node_mark;                   /* compact the nodes when there are this many */
    size_t nodes_least;                 /* node_mark's least (NODES_LEAST) */
} Loop;

/* A loop as ``_Search.__init__`` makes it: ``table_size`` keys in two generations. */
static void loop_init(Loop *L, double depth_weight, double explore, Py_ssize_t table_half,
                      Py_ssize_t frontier_size, size_t slot_bytes) {
    memset(L, 0, sizeof *L);
    L->depth_weight = depth_weight;
    L->explore = explore;
    L->table_half = table_half > 0 ? (size_t)table_half : 0;          /* 0: evict at every key */
    L->frontier_size = frontier_size > 0 ? (size_t)frontier_size : 0; /* 0: trim at every expansion */
    L->slot_bytes = slot_bytes;
    L->complete = 1;
    L->best_node = -1;
    L->node_mark = L->nodes_least = NODES_LEAST;
    mt_seed_zero(&L->rng);
}

static int64_t loop_new_node(Loop *L, uint32_t parent, const void *moves, int nm, uint32_t depth) {
    size_t bytes = (size_t)MOVE_BYTES * (size_t)nm;
    if (L->nnodes >= NONE32) return -1;
    if (grow((void **)&L->nodes, &L->cnodes, L->nnodes + 1, sizeof(Node))) return -1;
    if (bytes_reserve(&L->moves, bytes) || L->moves.size + bytes > NONE32) return -1;
    Node *n = &L->nodes[L->nnodes];
    n->parent = parent; n->moves = (uint32_t)L->moves.size; n->nmoves = (uint32_t)nm;
    n->depth = depth; n->slot = NONE32;
    if (bytes) memcpy(L->moves.data + L->moves.size, moves, bytes);
    L->moves.size += bytes;
    return (int64_t)L->nnodes++;
}

/* A slot of ``slot_bytes`` for ``node``'s position, for the family to encode it in. */
static uint8_t *loop_store(Loop *L, uint32_t node) {
    uint32_t slot;
    if (L->nfree) slot = L->free_slots[--L->nfree];
    else {
        if (grow((void **)&L->slots, &L->cslots, (L->nslots + 1) * L->slot_bytes, 1)) return NULL;
        slot = (uint32_t)L->nslots++;
    }
    L->nodes[node].slot = slot;
    return L->slots + (size_t)slot * L->slot_bytes;
}

/* The encoded position of a node that still has one. */
static inline const uint8_t *loop_position(const Loop *L, uint32_t node) {
    return L->slots + (size_t)L->nodes[node].slot * L->slot_bytes;
}

static int loop_release_slot(Loop *L, uint32_t node) {
    uint32_t slot = L->nodes[node].slot;
    if (slot == NONE32) return 0;
    if (grow((void **)&L->free_slots, &L->cfree, L->nfree + 1, sizeof(uint32_t))) return -1;
    L->free_slots[L->nfree++] = slot;
    L->nodes[node].slot = NONE32;
    return 0;
}

static int heap_push(Loop *L, Entry e) {
    if (grow((void **)&L->heap, &L->cheap, L->nheap + 1, sizeof(Entry))) return -1;
    size_t i = L->nheap++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!entry_less(&e, &L->heap[up])) break;
        L->heap[i] = L->heap[up]; i = up;
    }
    L->heap[i] = e;
    return 0;
}

static Entry heap_pop(Loop *L) {
    Entry top = L->heap[0], last = L->heap[--L->nheap];
    size_t i = 0, n = L->nheap;
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= n) break;
        size_t best = l + 1 < n && entry_less(&L->heap[l + 1], &L->heap[l]) ? l + 1 : l;
        if (!entry_less(&L->heap[best], &last)) break;
        L->heap[i] = L->heap[best]; i = best;
    }
    if (n) L->heap[i] = last;
    return top;
}

/* frontier.py's kinds: (int(priority), depth) -> a bucket, listed in ``types`` while it
 * has not been found empty. */
static int64_t bucket_of(Loop *L, Entry e) {
    uint64_t stored = (((uint64_t)(int64_t)e.prio << 32) | L->nodes[e.node].depth) + 1;  /* 0: empty slot */
    if ((L->kind_size + 1) * 2 > L->kind_cap) {
        size_t cap = L->kind_cap ? L->kind_cap * 2 : 1024;
        uint64_t *keys = calloc(cap, sizeof *keys);
        uint32_t *vals = malloc(cap * sizeof *vals);
        if (!keys || !vals) { free(keys); free(vals); return -1; }
        for (size_t i = 0; i < L->kind_cap; i++) {
            if (!L->kind_key[i]) continue;
            size_t j = (L->kind_key[i] * 0x9E3779B97F4A7C15ull) >> 20 & (cap - 1);
            while (keys[j]) j = (j + 1) & (cap - 1);
            keys[j] = L->kind_key[i]; vals[j] = L->kind_bucket[i];
        }
        free(L->kind_key); free(L->kind_bucket);
        L->kind_key = keys; L->kind_bucket = vals; L->kind_cap = cap;
    }
    size_t j = (stored * 0x9E3779B97F4A7C15ull) >> 20 & (L->kind_cap - 1);
    while (L->kind_key[j] && L->kind_key[j] != stored) j = (j + 1) & (L->kind_cap - 1);
    uint32_t b;
    if (L->kind_key[j]) b = L->kind_bucket[j];
    else {
        if (grow((void **)&L->buckets, &L->cbuckets, L->nbuckets + 1, sizeof(Bucket))) return -1;
        b = (uint32_t)L->nbuckets++;
        memset(&L->buckets[b], 0, sizeof(Bucket));
        L->kind_key[j] = stored; L->kind_bucket[j] = b; L->kind_size++;
    }
    if (!L->buckets[b].listed) {
        if (grow((void **)&L->types, &L->ctypes, L->ntypes + 1, sizeof(uint32_t))) return -1;
        L->types[L->ntypes++] = b;
        L->buckets[b].listed = 1;
    }
    return b;
}

static int loop_push(Loop *L, Entry e) {
    if (heap_push(L, e)) return -1;
    L->waiting++;
    if (L->explore > 0.0) {
        int64_t b = bucket_of(L, e);
        if (b < 0) return -1;
        Bucket *B = &L->buckets[b];
        if (grow((void **)&B->items, &B->cap, B->size + 1, sizeof(Entry))) return -1;
        B->items[B->size++] = e;
    }
    return 0;
}

static int mark_taken(Loop *L, int64_t order, uint8_t value) {
    size_t i = (size_t)(-order);
    if (i >= L->ctaken) {
        size_t old = L->ctaken;
        if (grow((void **)&L->taken, &L->ctaken, i + 1, 1)) return -1;
        memset(L->taken + old, 0, L->ctaken - old);
    }
    L->taken[i] = value;
    return 0;
}

static int is_taken(const Loop *L, int64_t order) {
    size_t i = (size_t)(-order);
    return i < L->ctaken && L->taken[i];
}

static Entry pop_best(Loop *L) {
    for (;;) {
        Entry e = heap_pop(L);
        if (!is_taken(L, e.order)) return e;
        L->taken[-e.order] = 0;
    }
}

static Entry pop_random(Loop *L) {
    for (;;) {
        uint32_t i = mt_below(&L->rng, (uint32_t)L->ntypes);
        Bucket *B = &L->buckets[L->types[i]];
        if (!B->size) {                               /* an emptied kind goes for good */
            B->listed = 0;
            L->types[i] = L->types[L->ntypes - 1];
            L->ntypes--;
            continue;
        }
        uint32_t j = mt_below(&L->rng, (uint32_t)B->size);
        Entry e = B->items[j];
        B->items[j] = B->items[B->size - 1];
        B->size--;
        if (!is_taken(L, e.order)) return e;
        L->taken[-e.order] = 0;
    }
}

/* Frontier.pop: the best entry, or with ``explore`` sometimes one of a random kind. */
static int loop_pop(Loop *L, Entry *out) {
    L->waiting--;
    if (L->explore <= 0.0) { *out = heap_pop(L); return 0; }
    *out = mt_random(&L->rng) < L->explore ? pop_random(L) : pop_best(L);
    return mark_taken(L, out->order, 1);
}

static void clear_frontier(Loop *L) {
    for (size_t b = 0; b < L->nbuckets; b++) GIVE(L->buckets[b].items, L->buckets[b].cap, sizeof(Entry));
    GIVE(L->buckets, L->cbuckets, sizeof(Bucket)); L->nbuckets = 0;
    free(L->kind_key); free(L->kind_bucket);
    L->kind_key = NULL; L->kind_bucket = NULL; L->kind_cap = L->kind_size = 0;
    GIVE(L->types, L->ctypes, sizeof(uint32_t)); L->ntypes = 0;
    if (L->taken) memset(L->taken, 0, L->ctaken);
    L->nheap = 0; L->waiting = 0;
}

/* Frontier.keep: the best ``n`` waiting entries stay, pushed again best first; with
 * ``back`` (Frontier.keep's ``back``), the ``nback`` entries popped before and held since
 * are among them. */
static int keep_with(Loop *L, size_t n, const Entry *back, size_t nback) {
    size_t m = 0;
    Entry *waiting = malloc((L->nheap + nback ? L->nheap + nback : 1) * sizeof(Entry));
    if (!waiting) return -1;
    for (size_t i = 0; i < L->nheap; i++)
        if (!is_taken(L, L->heap[i].order)) waiting[m++] = L->heap[i];
    for (size_t i = 0; i < nback; i++) waiting[m++] = back[i];
    qsort(waiting, m, sizeof(Entry), cmp_entry);
    for (size_t i = n; i < m; i++)
        if (loop_release_slot(L, waiting[i].node)) { free(waiting); return -1; }
    clear_frontier(L);
    for (size_t i = 0; i < m && i < n; i++)
        if (loop_push(L, waiting[i])) { free(waiting); return -1; }
    free(waiting);
    return 0;
}

static inline int keep(Loop *L, size_t n) { return keep_with(L, n, NULL, 0); }

/* _Search.trim, after an expansion: the better half of a frontier grown past its size. */
static int loop_trim(Loop *L) {
    if (L->waiting <= L->frontier_size) return 0;
    if (keep(L, L->frontier_size / 2)) return -1;
    L->complete = 0;
    return 0;
}

/* _Search.admit (and _admit_pooled): is the key new to this search (it is recorded)? 1, 0,
 * or -1 (out of memory: a Python error set). The key's buffer is zero for 8 bytes past its
 * end (hash_bytes reads them).
 *
 * _admit_pooled adds every key asked to the closure's generated keys. With ``pooled_all``
 * (every key the tables hold is among them already: checked when the search joins) only a
 * key new to the tables is added there: a key they refuse was added when it was admitted,
 * and a set only grows, so the set is the same, a look-up a child fewer. */
static int loop_admit_hashed(Loop *L, const uint8_t *k, int n, uint64_t h) {
    if (n > KEY_MAX) { PyErr_SetString(PyExc_RuntimeError, "search_core: a key longer than it keeps"); return -1; }
    if (L->generated_keys && !L->pooled_all && keyset_add(L->generated_keys, k, n, h) < 0) goto memory;
    L->generated++;
    /* The newer table first, where most keys seen again are: the same answer as search.py's
     * order, since the two tables never share a key (a key enters the newer one only when
     * the older one lacks it, and the newer one starts empty). */
    if (keyset_has(&L->table, k, n, h)) return 0;
    if (L->old_table.size && keyset_has(&L->old_table, k, n, h)) return 0;
    size_t size = L->table.size;
    int added = keyset_add(&L->table, k, n, h);
    if (added < 0) goto memory;
    if (added == 0) return 0;
    if (L->pooled_all && keyset_add(L->generated_keys, k, n, h) < 0) goto memory;
    if (size + 1 >= L->table_half) {                 /* evict the older generation */
        keyset_free(&L->old_table);
        L->old_table = L->table;
        memset(&L->table, 0, sizeof L->table);
    }
    return 1;
memory:
    PyErr_NoMemory();
    return -1;
}

/* loop_admit with the key's hash made beforehand (hash_bytes(k, n)): a family that makes an
 * expansion's keys first fetches their slots ahead (loop_prefetch, loop_prefetch_key), then
 * asks them in the order the Python expander asks them. */
static inline int loop_admit(Loop *L, const uint8_t *k, int n) {
    return loop_admit_hashed(L, k, n, hash_bytes(k, n));
}

static inline void prefetch_slot(const KeySet *t, uint64_t h) {
    if (t->cap) __builtin_prefetch(&t->slots[h & (t->cap - 1)]);
}

/* The key in the first slot a hash looks at, when its hash is that one (a key seen before). */
static inline void prefetch_key(const KeySet *t, uint64_t h) {
    if (!t->cap) return;
    const KeySlot *slot = &t->slots[h & (t->cap - 1)];
    if (slot->hash == h) __builtin_prefetch(t->arena.data + slot->at);
}

/* The first slot of a key of hash ``h`` in both tables and in a pooled proof's generated keys,
 * fetched ahead of loop_admit_hashed. */
static inline void loop_prefetch(const Loop *L, uint64_t h) {
    prefetch_slot(&L->table, h);
    prefetch_slot(&L->old_table, h);
    if (L->generated_keys) prefetch_slot(L->generated_keys, h);
}

/* Its key too, where that slot holds its hash (once the slot is fetched: a second pass). */
static inline void loop_prefetch_key(const Loop *L, uint64_t h) {
    prefetch_key(&L->table, h);
    prefetch_key(&L->old_table, h);
}

/* The start (``_Search.seed``) at ``depth`` moves (where a family's move may stand for more
 * than one of the engine's): its key in the table, its node, its entry. 0, or -1 (out of
 * memory); *slot: where the family encodes the position. */
static int loop_seed_at(Loop *L, const uint8_t *key, int n, const void *moves, int nm, uint32_t depth,
                        double value, uint8_t **slot) {
    if (keyset_add(&L->table, key, n, hash_bytes(key, n)) < 0) return -1;
    int64_t node = loop_new_node(L, NONE32, moves, nm, depth);
    if (node < 0 || !(*slot = loop_store(L, (uint32_t)node))) return -1;
    L->order--;
    return loop_push(L, (Entry){loop_priority(value, L->depth_weight, depth), L->order, (uint32_t)node});
}

/* The start, its depth the number of its moves. */
static inline int loop_seed(Loop *L, const uint8_t *key, int n, const void *moves, int nm, double value,
                            uint8_t **slot) {
    return loop_seed_at(L, key, n, moves, nm, (uint32_t)nm, value, slot);
}

/* A child generated (the loop of ``_Search.expand_next``): won when its score is 0 (every
 * card home: *won is its node and *slot NULL), else the best score noted and the child
 * pushed; *slot: where the family encodes its position. 0, or -1 (out of memory). */
static int loop_child(Loop *L, uint32_t parent, const void *moves, int nm, uint32_t depth,
                      double value, int64_t *won, uint8_t **slot) {
    *slot = NULL;
    int64_t node = loop_new_node(L, parent, moves, nm, depth);
    if (node < 0) return -1;
    if (value == 0.0) { *won = node; return 0; }
    if (L->best_node < 0 || value < L->best_score) { L->best_score = value; L->best_node = node; }
    if (!(*slot = loop_store(L, (uint32_t)node))) return -1;
    L->order--;
    return loop_push(L, (Entry){loop_priority(value, L->depth_weight, depth), L->order, (uint32_t)node});
}

/* The head of ``_Search.expand_next``: the next entry popped, its node's position released
 * for reuse (it stays readable until the next store). 1: expand it; 0: skipped, another
 * pooled search expanded it; -1: error. The key of the popped position is the family's
 * (``key``, n bytes, zero for 8 bytes past its end) only when pooled: ``key_of`` makes it
 * then. */
typedef int (*KeyOf)(void *family, const uint8_t *position, uint8_t *key);

static int loop_next(Loop *L, Entry *e, KeyOf key_of, void *family, uint8_t *key) {
    if (loop_pop(L, e)) { PyErr_NoMemory(); return -1; }
    if (L->expanded) {
        int n = key_of(family, loop_position(L, e->node), key);
        uint64_t h = hash_bytes(key, n);
        if (L->portfolio_expanded >= L->pool_after && keyset_has(L->expanded, key, n, h)) {
            L->skipped++;
            if (L->hold) {
                if (grow((void **)&L->held, &L->cheld, L->nheld + 1, sizeof(Entry))) { PyErr_NoMemory(); return -1; }
                L->held[L->nheld++] = *e;
                return 0;
            }
            return loop_release_slot(L, e->node) ? (PyErr_NoMemory(), -1) : 0;
        }
        if (keyset_add(L->expanded, key, n, h) < 0) { PyErr_NoMemory(); return -1; }
    }
    L->portfolio_expanded++;
    return 1;
}

/* ------------------------------------------------------------------ recycling nodes */

/* A node is needed while a position waiting (or held) descends from it, or it leads to the
 * best position (``best_node``): the line to it is read from the nodes. The others (the
 * expanded positions whose children were all expanded or dropped, and their own) are dead.
 * ``loop_compact`` keeps only the live nodes, in their order, and renumbers them in every
 * entry: a node's parent comes before it, so a sweep from the last node down marks every
 * ancestor of a live node, and a sweep up moves each live node and its moves down in place.
 * So the nodes cost what the live ones do, at most twice that between two compactions
 * (``node_mark``): amortized, a compaction costs a step per node made. Nothing a search
 * orders by is a node's number, so the expansions stay the same. Only between expansions
 * (``loop_run``) and once the search is over (``loop_release``): a node number handed to
 * Python (``run``'s won node, ``best_node``) is read at once, before the next run. */
static void mark_entries(uint32_t *map, const Entry *e, size_t n) {
    for (size_t i = 0; i < n; i++) map[e[i].node] = 0;
}

static void renumber_entries(const uint32_t *map, Entry *e, size_t n) {
    for (size_t i = 0; i < n; i++) e[i].node = map[e[i].node];
}

/* 0, or -1 (out of memory: nothing changed). With ``all_entries`` 0 only the best node's line
 * stays (the frontier is gone). */
static int loop_compact(Loop *L, int all_entries) {
    size_t n = L->nnodes, bytes = n * sizeof(uint32_t), live = 0, at = 0;
    if (!n) return 0;
    uint32_t *map = pool_take(&bytes);
    if (!map) return -1;
    memset(map, 0xFF, n * sizeof(uint32_t));                  /* NONE32: dead */
    if (all_entries) {
        mark_entries(map, L->heap, L->nheap);                 /* taken entries too: they are */
        for (size_t b = 0; b < L->nbuckets; b++)              /* dropped when drawn, unread */
            mark_entries(map, L->buckets[b].items, L->buckets[b].size);
        mark_entries(map, L->held, L->nheld);
    }
    if (L->best_node >= 0) map[L->best_node] = 0;
    for (size_t i = n; i-- > 0;)
        if (map[i] != NONE32 && L->nodes[i].parent != NONE32) map[L->nodes[i].parent] = 0;
    for (size_t i = 0; i < n; i++) {
        if (map[i] == NONE32) continue;
        Node node = L->nodes[i];
        size_t size = (size_t)MOVE_BYTES * node.nmoves;
        memmove(L->moves.data + at, L->moves.data + node.moves, size);
        node.moves = (uint32_t)at;
        at += size;
        if (node.parent != NONE32) node.parent = map[node.parent];
        L->nodes[live] = node;
        map[i] = (uint32_t)live++;
    }
    if (all_entries) {
        renumber_entries(map, L->heap, L->nheap);
        for (size_t b = 0; b < L->nbuckets; b++)
            renumber_entries(map, L->buckets[b].items, L->buckets[b].size);
        renumber_entries(map, L->held, L->nheld);
    }
    if (L->best_node >= 0) L->best_node = map[L->best_node];
    pool_give(map, bytes);
    L->nnodes = live;
    L->moves.size = at;
    L->node_mark = live * 2 > L->nodes_least ? live * 2 : L->nodes_least;
    return 0;
}

/* The node arrays cut to what the nodes left use (a finished search: loop_release). */
static int loop_shrink_nodes(Loop *L) {
    size_t cap = L->nnodes ? L->nnodes : 1, size = L->moves.size ? L->moves.size : 1;
    Node *nodes = malloc(cap * sizeof(Node));
    uint8_t *moves = malloc(size);
    if (!nodes || !moves) { free(nodes); free(moves); return -1; }
    memcpy(nodes, L->nodes, L->nnodes * sizeof(Node));
    memcpy(moves, L->moves.data, L->moves.size);
    GIVE(L->nodes, L->cnodes, sizeof(Node));
    GIVE(L->moves.data, L->moves.cap, 1);
    L->nodes = nodes; L->cnodes = cap;
    L->moves.data = moves; L->moves.cap = size;
    return 0;
}

/* ------------------------------------------------------------------ Python's side */

/* What a family's expansion returns: the won node (>= 0), or one of these. */
#define EXPANDED (-1)                   /* expanded, no win among the children */
#define SKIPPED (-2)                    /* popped, left to the pooled search that expanded it */
#define FAILED (-3)                     /* a Python error is set */

/* Gives back every buffer of the loop (to the pool) but the nodes and their moves. */
static void loop_free_frontier_and_tables(Loop *L) {
    keyset_free(&L->table); keyset_free(&L->old_table);
    clear_frontier(L);
    GIVE(L->heap, L->cheap, sizeof(Entry));
    GIVE(L->held, L->cheld, sizeof(Entry)); L->nheld = 0;
    GIVE(L->taken, L->ctaken, 1);
    GIVE(L->slots, L->cslots, 1); L->nslots = 0;
    GIVE(L->free_slots, L->cfree, sizeof(uint32_t)); L->nfree = 0;
}

/* Out of a pooled proof. */
static void loop_unpool(Loop *L) {
    L->expanded = L->generated_keys = NULL;
    L->pooled_all = 0;
    Py_CLEAR(L->pooled[0]);
    Py_CLEAR(L->pooled[1]);
}

static void loop_free_all(Loop *L) {
    loop_free_frontier_and_tables(L);
    GIVE(L->nodes, L->cnodes, sizeof(Node)); L->nnodes = 0;
    GIVE(L->moves.data, L->moves.cap, 1); L->moves.size = 0;
    loop_unpool(L);
}

/* run(n, expanded, pool_after) -> (popped, expanded, won node or None, depth of the last
 * expanded): up to n pops, fewer if a win is found or the frontier runs empty; ``expanded``:
 * the whole portfolio's expansions so far, ``pool_after`` search.py's POOL_AFTER (pooled
 * searches skip each other's positions once the portfolio expanded that many). */
typedef int64_t (*Expand)(void *search, uint32_t *depth);

static PyObject *loop_run(Loop *L, void *search, Expand expand, PyObject *args) {
    Py_ssize_t n, done = 0;
    long long before, pool_after;
    if (!PyArg_ParseTuple(args, "nLL", &n, &before, &pool_after)) return NULL;
    L->portfolio_expanded = before;
    L->pool_after = pool_after;
    int64_t won = EXPANDED;
    uint32_t depth = 0, last = 0;
    while (done < n && L->waiting && won < 0) {
        if (L->nnodes >= L->node_mark && loop_compact(L, 1)) return PyErr_NoMemory();
        won = expand(search, &depth);
        if (won == FAILED) return NULL;
        if (won != SKIPPED) last = depth;
        done++;
    }
    long long expanded = L->portfolio_expanded - before;
    if (won >= 0) return Py_BuildValue("nLLI", done, expanded, (long long)won, last);
    return Py_BuildValue("nLOI", done, expanded, Py_None, last);
}

/* trim(n): _Search.trim, the ``n`` best waiting entries kept. */
static PyObject *loop_trim_to(Loop *L, PyObject *args) {
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "n", &n)) return NULL;
    if (n < 0) return PyErr_Format(PyExc_ValueError, "search_core: trim keeps 0 or more entries, not %zd", n);
    if (keep(L, (size_t)n)) return PyErr_NoMemory();
    L->complete = 0;
    Py_RETURN_NONE;
}

/* hold(): from now on, keep the positions skipped (_Search.hold). */
static PyObject *loop_hold(Loop *L) {
    L->hold = 1;
    Py_RETURN_NONE;
}

/* alone(table_size): _Search.go_alone, out of the pooled proof: the positions held back on
 * the frontier, none skipped any more, the tables ``table_size`` keys in two generations. */
static PyObject *loop_alone(Loop *L, PyObject *args) {
    Py_ssize_t table_size;
    if (!PyArg_ParseTuple(args, "n", &table_size)) return NULL;
    if (table_size < 1) return PyErr_Format(PyExc_ValueError, "search_core: alone takes a table of 1 key or more, not %zd", table_size);
    if (keep_with(L, (size_t)-1, L->held, L->nheld)) return PyErr_NoMemory();
    GIVE(L->held, L->cheld, sizeof(Entry)); L->nheld = 0;
    L->hold = 0;
    L->skipped = 0;
    L->table_half = (size_t)table_size / 2;
    loop_unpool(L);
    Py_RETURN_NONE;
}

/* compact_at(n): the nodes compacted once there are ``n`` (NODES_LEAST by default; after a
 * compaction, twice the live ones if that is more): the tests make it small, so that their
 * searches compact often. */
static PyObject *loop_compact_at(Loop *L, PyObject *args) {
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "n", &n)) return NULL;
    if (n < 1) return PyErr_Format(PyExc_ValueError, "search_core: compact_at takes 1 or more nodes, not %zd", n);
    L->nodes_least = (size_t)n;
    L->node_mark = (size_t)n;
    Py_RETURN_NONE;
}

/* line(node) -> bytes: the moves from the start to the node, MOVE_BYTES a move. */
static PyObject *loop_line(Loop *L, PyObject *args) {
    long long node;
    if (!PyArg_ParseTuple(args, "L", &node)) return NULL;
    if (node < 0 || (size_t)node >= L->nnodes) { PyErr_SetString(PyExc_IndexError, "search_core: no such node"); return NULL; }
    size_t total = 0;
    for (uint32_t i = (uint32_t)node; i != NONE32; i = L->nodes[i].parent) total += (size_t)MOVE_BYTES * L->nodes[i].nmoves;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)total);
    if (!out) return NULL;
    uint8_t *b = (uint8_t *)PyBytes_AS_STRING(out) + total;
    for (uint32_t i = (uint32_t)node; i != NONE32; i = L->nodes[i].parent) {
        size_t size = (size_t)MOVE_BYTES * L->nodes[i].nmoves;
        b -= size;
        memcpy(b, L->moves.data + L->nodes[i].moves, size);
    }
    return out;
}

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
    .tp_name = LOOP_MODULE ".KeyPool",
    .tp_basicsize = sizeof(KeyPool),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A set of bytes keys (add, in, len) for a pooled proof.",
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)KeyPool_dealloc,
    .tp_methods = KeyPool_methods,
    .tp_as_sequence = &KeyPool_sequence,
};

/* The header's types added to the family's module (its init calls it): 0, or -1. */
static int loop_add_types(PyObject *module) {
    if (PyType_Ready(&KeyPoolType) < 0) return -1;
    Py_INCREF(&KeyPoolType);
    if (PyModule_AddObject(module, "KeyPool", (PyObject *)&KeyPoolType) < 0) {
        Py_DECREF(&KeyPoolType);
        return -1;
    }
    return 0;
}

/* Does ``big`` hold every key of ``keys``? */
static int holds_all(const KeySet *big, const KeySet *keys) {
    for (size_t j = 0; j < keys->cap; j++) {
        if (!keys->slots[j].hash) continue;
        const uint8_t *k = keys->arena.data + keys->slots[j].at;
        if (!keyset_has(big, k + 2, key_length(k), keys->slots[j].hash)) return 0;
    }
    return 1;
}

/* pool(expanded, generated) or pool(None, None): take part in a pooled proof (_Closure's
 * two sets of keys, made KeyPools), or leave it. */
static PyObject *loop_pool(Loop *L, PyObject *args) {
    PyObject *expanded, *generated;
    if (!PyArg_ParseTuple(args, "OO", &expanded, &generated)) return NULL;
    if ((expanded == Py_None) != (generated == Py_None) ||
        (expanded != Py_None && (!PyObject_TypeCheck(expanded, &KeyPoolType) ||
                                 !PyObject_TypeCheck(generated, &KeyPoolType)))) {
        PyErr_SetString(PyExc_TypeError, "search_core: pool(expanded, generated) takes two KeyPools or two Nones");
        return NULL;
    }
    loop_unpool(L);
    if (expanded != Py_None) {
        Py_INCREF(expanded); L->pooled[0] = expanded; L->expanded = &((KeyPool *)expanded)->keys;
        Py_INCREF(generated); L->pooled[1] = generated; L->generated_keys = &((KeyPool *)generated)->keys;
        L->pooled_all = holds_all(L->generated_keys, &L->table) && holds_all(L->generated_keys, &L->old_table);
    }
    Py_RETURN_NONE;
}

/* release(): give back the frontier's, tables' and positions' memory, and the nodes' but
 * the best line's (still asked for). */
static int loop_release(Loop *L) {
    loop_free_frontier_and_tables(L);
    if (loop_compact(L, 0) || loop_shrink_nodes(L)) return -1;
    for (size_t i = 0; i < L->nnodes; i++) L->nodes[i].slot = NONE32;
    return 0;
}

/* ``*out``: the bytes of ``obj``, a bytes object of ``size`` bytes (a table a family's Search
 * is handed); else -1 with a ValueError naming it ``what``. */
static int read_bytes(PyObject *obj, const char *what, Py_ssize_t size, const uint8_t **out) {
    if (!PyBytes_Check(obj) || PyBytes_GET_SIZE(obj) != size) {
        PyErr_Format(PyExc_ValueError, "search_core: %s must be %zd bytes", what, size);
        return -1;
    }
    *out = (const uint8_t *)PyBytes_AS_STRING(obj);
    return 0;
}

/* ``out`` (room for ``most`` moves): the moves of ``obj``, bytes of MOVE_BYTES a move (the
 * moves that reached a start, as ``seed`` and ``successors`` are handed them); *n: how many.
 * Else -1 with a ValueError. */
static inline int read_moves(PyObject *obj, void *out, int most, int *n) {
    if (!PyBytes_Check(obj) || PyBytes_GET_SIZE(obj) % MOVE_BYTES || PyBytes_GET_SIZE(obj) > (Py_ssize_t)MOVE_BYTES * most) {
        PyErr_Format(PyExc_ValueError, "search_core: moves are bytes, %d a move", MOVE_BYTES);
        return -1;
    }
    *n = (int)(PyBytes_GET_SIZE(obj) / MOVE_BYTES);
    memcpy(out, PyBytes_AS_STRING(obj), PyBytes_GET_SIZE(obj));
    return 0;
}

/* The root of a probe (a family's ``successors``: one expansion on a fresh loop with no depth
 * weight, for the tests to compare with the Python expander): the position reached by these
 * moves, alone on the frontier. The slot to encode it in, or NULL (out of memory, error set). */
static inline uint8_t *loop_probe_root(Loop *L, const void *moves, int nm) {
    int64_t root = loop_new_node(L, NONE32, moves, nm, 0);
    uint8_t *slot = root < 0 ? NULL : loop_store(L, (uint32_t)root);
    if (!slot || loop_push(L, (Entry){0.0, -1, (uint32_t)root})) { PyErr_NoMemory(); return NULL; }
    return slot;
}

/* A probe's child's score: its priority on the frontier (no depth weight), 0 for a won child
 * (never pushed). */
static inline double loop_probe_score(const Loop *L, size_t node) {
    for (size_t h = 0; h < L->nheap; h++)
        if (L->heap[h].node == node) return L->heap[h].prio;
    return 0.0;
}

/* The getters of a family's search type ``T`` whose Loop is its member ``loop``, and their
 * rows for its PyGetSetDef table. */
#define LOOP_GETTERS(T)                                                                          \
    static PyObject *T##_waiting(T *S, void *c) { return PyLong_FromSize_t(S->loop.waiting); }   \
    static PyObject *T##_generated(T *S, void *c) { return PyLong_FromLongLong(S->loop.generated); } \
    static PyObject *T##_complete(T *S, void *c) { return PyBool_FromLong(S->loop.complete); }   \
    static PyObject *T##_skipped(T *S, void *c) { return PyLong_FromLongLong(S->loop.skipped); } \
    static PyObject *T##_best_score(T *S, void *c) {                                             \
        if (S->loop.best_node < 0) Py_RETURN_NONE;                                               \
        return PyFloat_FromDouble(S->loop.best_score);                                           \
    }                                                                                            \
    static PyObject *T##_best_node(T *S, void *c) {                                              \
        if (S->loop.best_node < 0) Py_RETURN_NONE;                                               \
        return PyLong_FromLongLong(S->loop.best_node);                                           \
    }                                                                                            \
    static PyObject *T##_nodes(T *S, void *c) { return PyLong_FromSize_t(S->loop.nnodes); }      \
    static PyObject *T##_node_bytes(T *S, void *c) {                                             \
        return PyLong_FromSize_t(S->loop.cnodes * sizeof(Node) + S->loop.moves.cap);             \
    }

#define LOOP_GETSET(T)                                                                           \
    {"waiting", (getter)T##_waiting, NULL, "positions in the frontier", NULL},                   \
    {"generated", (getter)T##_generated, NULL, "successors asked about", NULL},                  \
    {"complete", (getter)T##_complete, NULL, "False once the frontier was trimmed", NULL},       \
    {"skipped", (getter)T##_skipped, NULL, "positions left to another pooled search", NULL},     \
    {"best_score", (getter)T##_best_score, NULL, "the best score generated, or None", NULL},     \
    {"best_node", (getter)T##_best_node, NULL, "the node of the best score, or None", NULL},     \
    {"nodes", (getter)T##_nodes, NULL, "search nodes kept (live, and dead since the last compaction)", NULL}, \
    {"node_bytes", (getter)T##_node_bytes, NULL, "bytes the search nodes and their moves hold", NULL}

/* The methods of a family's search type ``T`` that are the loop's alone: run, line, pool,
 * release, trim, hold and alone. The family defines ``not_ready(const T *)`` and
 * ``expand_next`` (an Expand) before it, and keeps its own methods (seed, successors, key, ...). */
#define LOOP_METHODS(T)                                                                          \
    static PyObject *T##_run(T *S, PyObject *args) {                                             \
        if (not_ready(S)) return NULL;                                                           \
        return loop_run(&S->loop, S, expand_next, args);                                         \
    }                                                                                            \
    static PyObject *T##_line(T *S, PyObject *args) { return loop_line(&S->loop, args); }       \
    static PyObject *T##_pool(T *S, PyObject *args) { return loop_pool(&S->loop, args); }       \
    static PyObject *T##_release(T *S, PyObject *unused) {                                       \
        if (loop_release(&S->loop)) return PyErr_NoMemory();                                     \
        Py_RETURN_NONE;                                                                          \
    }                                                                                            \
    static PyObject *T##_trim(T *S, PyObject *args) { return loop_trim_to(&S->loop, args); }    \
    static PyObject *T##_hold(T *S, PyObject *unused) { return loop_hold(&S->loop); }            \
    static PyObject *T##_alone(T *S, PyObject *args) { return loop_alone(&S->loop, args); }      \
    static PyObject *T##_compact_at(T *S, PyObject *args) { return loop_compact_at(&S->loop, args); }

/* Their rows for the PyMethodDef table, but line's and pool's (their docs tell the family's
 * move bytes): run, release, trim, hold and alone. */
#define LOOP_METHOD_ROWS(T)                                                                      \
    {"run", (PyCFunction)T##_run, METH_VARARGS,                                                  \
     "run(n, expanded, pool_after) -> (popped, expanded, won node or None, last depth)."},       \
    {"release", (PyCFunction)T##_release, METH_NOARGS, "release(): free the frontier and tables."}, \
    {"trim", (PyCFunction)T##_trim, METH_VARARGS,                                                \
     "trim(n): keep the n best waiting entries."},                                               \
    {"hold", (PyCFunction)T##_hold, METH_NOARGS, "hold(): keep the positions skipped from now on."}, \
    {"alone", (PyCFunction)T##_alone, METH_VARARGS,                                              \
     "alone(table_size): go on alone: the held positions back, no pool, tables of that size."},  \
    {"compact_at", (PyCFunction)T##_compact_at, METH_VARARGS,                                    \
     "compact_at(n): recycle the dead nodes once there are n nodes (twice the live ones at least)."}

/* The type object ``T##Type`` of a family's search type ``T``, named ``name`` (the module's
 * path), and its getters' table: the family defines ``T##_init``, ``T##_dealloc`` and
 * ``T##_methods``. */
#define LOOP_TYPE(T, name, doc)                                                                  \
    LOOP_GETTERS(T)                                                                              \
    static PyGetSetDef T##_getset[] = {                                                          \
        LOOP_GETSET(T),                                                                          \
        {NULL}                                                                                   \
    };                                                                                           \
    static PyTypeObject T##Type = {                                                              \
        PyVarObject_HEAD_INIT(NULL, 0)                                                           \
        .tp_name = name,                                                                         \
        .tp_basicsize = sizeof(T),                                                               \
        .tp_flags = Py_TPFLAGS_DEFAULT,                                                          \
        .tp_doc = doc,                                                                           \
        .tp_new = PyType_GenericNew,                                                             \
        .tp_init = (initproc)T##_init,                                                           \
        .tp_dealloc = (destructor)T##_dealloc,                                                   \
        .tp_methods = T##_methods,                                                               \
        .tp_getset = T##_getset,                                                                 \
    }

/* A family's module of ``def`` with its ``Search`` type and the loop's (KeyPool), or NULL with
 * an error set: its PyInit then adds its own constants. */
static PyObject *loop_module(PyModuleDef *def, PyTypeObject *search) {
    if (PyType_Ready(search) < 0) return NULL;
    PyObject *m = PyModule_Create(def);
    if (!m) return NULL;
    if (loop_add_types(m) < 0) { Py_DECREF(m); return NULL; }
    Py_INCREF(search);
    if (PyModule_AddObject(m, "Search", (PyObject *)search) < 0) {
        Py_DECREF(search); Py_DECREF(m);
        return NULL;
    }
    return m;
}

/* random(n) -> the first n of random() and randrange(k) for k = 1..n, from Random(0): the
 * tests compare them with Python's. */
static PyObject *loop_random(PyObject *self, PyObject *args) {
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

#endif
