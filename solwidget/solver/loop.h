/* The family-free half of a best-first search in C: solver/search.py's ``_Search`` loop
 * (frontier, transposition tables, search nodes, exploring, pooled proofs) without a game and
 * without Python. search_core.c holds a ``Loop`` in its Python type; a family's kernel
 * (games/<family>/kernel.c, kernel.h's table) includes this file and adds what only it knows:
 * how a position is encoded in a slot of ``slot_bytes`` bytes, its successors, keys and
 * scores. tests/test_kernels.py holds the whole, loop and kernel, to the Python search
 * expansion for expansion.
 *
 * What makes the C loop the Python one, step for step:
 * - the frontier is a binary heap on (priority, order), order counting down from 0 at each
 *   push, so that ties go to the newest position as in Frontier's heapq; with ``explore`` a
 *   draw of the same Mersenne Twister as Python's random.Random(0) picks the same kinds
 *   (frontier.py: the rounded priority and the depth) and entries as Frontier does;
 * - ``loop_admit`` is ``_Search.admit``: two generations of ``table_half`` keys each, and
 *   ``loop_admit_turned`` its ``_admit_turned`` (turn dominance);
 * - a priority is ``value + depth_weight * depth`` rounded as Python rounds it
 *   (``loop_priority``), for any depth weight;
 * - a trim keeps the best ``frontier_size / 2`` entries as ``Frontier.keep`` does;
 * - with a pooled proof (``_Closure``, whose two sets of keys are search_core's KeyPools,
 *   holding the same bytes keys as the Python expanders make) every key admitted is among
 *   ``generated``, and a popped position is skipped when another search expanded it, past
 *   search.py's POOL_AFTER expansions of the whole portfolio (handed to ``run``), as
 *   ``_Search.expand_next`` does.
 *
 * Every function is static inline: each kernel's file compiles its own copy, so that the
 * calls of an expansion (loop_admit, loop_child) are inlined into its successors. Only the
 * pool of spare buffers is one, search_core.c's. */

#ifndef SOLWIDGET_LOOP_H
#define SOLWIDGET_LOOP_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NONE32 0xFFFFFFFFu

/* ------------------------------------------------------------------ Mersenne Twister */
/* MT19937 as Python's random module runs it: Random(0) seeds it by init_by_array([0]),
 * random() takes 53 bits of two words, randrange(n) takes bit_length(n) bits of a word
 * until they fall below n. */

typedef struct { uint32_t mt[624]; int i; } Twister;

static inline void mt_init(Twister *r, uint32_t s) {
    r->mt[0] = s;
    for (int i = 1; i < 624; i++)
        r->mt[i] = 1812433253u * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
    r->i = 624;
}

static inline void mt_seed_zero(Twister *r) {            /* init_by_array with the key [0] */
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

static inline uint32_t mt_next(Twister *r) {
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

static inline double mt_random(Twister *r) {
    uint32_t a = mt_next(r) >> 5, b = mt_next(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

static inline uint32_t mt_below(Twister *r, uint32_t n) {   /* n >= 1, n < 2^32 */
    int k = 0;
    while (k < 32 && (n >> k)) k++;
    uint32_t x;
    do x = mt_next(r) >> (32 - k); while (x >= n);
    return x;
}


/* ------------------------------------------------------------------ memory */

/* The large buffers of finished searches are kept for the next ones (search_core.c's pool,
 * shared by every kernel): a buffer of at least *bytes, *bytes becoming its size; and a
 * buffer given back. */
void *loop_pool_take(size_t *bytes);
void loop_pool_give(void *p, size_t bytes);
#define pool_take loop_pool_take
#define pool_give loop_pool_give

/* The first room of the arrays that most searches fill past it: a search's nodes, moves,
 * slots, heap and keys. A buffer this large comes back from the pool of the searches before
 * (search_core.c keeps those of 64 KB and more), where doubling from a few hundred bytes
 * would copy what the array holds at every doubling. */
#define FIRST_ROOM ((size_t)64 << 10)

/* Past this, an array grows by an eighth, in place: the C library moves so large a buffer's
 * pages rather than its bytes (glibc maps it apart and remaps it), so that an array of keys
 * or nodes holds at most an eighth unused, not up to half, and is never held twice while it
 * is copied. */
#define GROW_IN_PLACE ((size_t)64 << 20)

/* Room for ``need`` items of ``unit`` bytes in *p (``*cap`` items now), doubling from
 * ``first`` bytes up to GROW_IN_PLACE. */
static inline int grow_from(void **p, size_t *cap, size_t need, size_t unit, size_t first) {
    if (need <= *cap) return 0;
    size_t bytes = *cap ? *cap * unit : first;
    if (bytes >= GROW_IN_PLACE) {
        while (bytes < need * unit) bytes += bytes / 8;
        void *q = realloc(*p, bytes);
        if (!q) return -1;
        *p = q; *cap = bytes / unit;
        return 0;
    }
    while (bytes < need * unit) bytes *= 2;
    void *q = pool_take(&bytes);
    if (!q) return -1;
    if (*cap) memcpy(q, *p, *cap * unit);
    pool_give(*p, *cap * unit);
    *p = q; *cap = bytes / unit;
    return 0;
}

static inline int grow(void **p, size_t *cap, size_t need, size_t unit) {
    return grow_from(p, cap, need, unit, 256);
}

/* An array that holds ``size`` items in a quarter of its room or less cut to the room
 * ``grow`` would have given it (twice its items at least, 256 bytes at least), or given back
 * when empty: after it, the array holds more than a quarter of its room, or 256 bytes at most.
 * A new buffer of that size, not a spare (a spare may be as large as the array). Where none is
 * had, the array stays as it is: its room only bounds memory. */
static inline void shrink(void **p, size_t *cap, size_t size, size_t unit) {
    if (size * 4 > *cap) return;
    if (!size) {
        pool_give(*p, *cap * unit);
        *p = NULL; *cap = 0;
        return;
    }
    size_t bytes = 256;
    while (bytes < 2 * size * unit) bytes *= 2;
    if (bytes >= *cap * unit) return;
    void *q = malloc(bytes);
    if (!q) return;
    memcpy(q, *p, size * unit);
    pool_give(*p, *cap * unit);
    *p = q; *cap = bytes / unit;
}

#define GIVE(p, cap, unit) (pool_give((p), (cap) * (unit)), (p) = NULL, (cap) = 0)

typedef struct { uint8_t *data; size_t size, cap; } Bytes;

static inline int bytes_reserve(Bytes *b, size_t more) {
    return grow_from((void **)&b->data, &b->cap, b->size + more, 1, FIRST_ROOM);
}

/* A set of keys: open addressing on a 64-bit hash, the keys in an arena (length first, in
 * two bytes: a key is at most KEY_MAX bytes). A slot holds a key's hash and its place in
 * the arena together: one cache line a look-up, where two arrays cost two misses a key
 * seen again. */
#define KEY_MAX 0xFFFF
typedef struct { uint64_t hash; uint32_t at, value; } KeySlot;   /* value: loop_admit_turned's */
typedef struct { KeySlot *slots; size_t cap, size; Bytes arena; } KeySet;

/* ``n`` cards copied CHUNK bytes at a time, reading and writing up to CHUNK - 1 bytes past
 * either end: a copy of a length known only when it runs goes through the C library's string
 * copy, slow to start for the few cards of a pile. Every buffer a kernel gives it has that
 * room (its rows and key buffers say so). */
#define CHUNK 16
static inline void copy_cards(uint8_t *to, const uint8_t *from, int n) {
    for (int j = 0; j < n; j += CHUNK) memcpy(to + j, from + j, CHUNK);
}

/* A key's hash, eight bytes at a time: the key's buffer is zero past its end (KEYBUF). */
static inline uint64_t hash_bytes(const uint8_t *k, int n) {
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

static inline void keyset_free(KeySet *s) {
    pool_give(s->slots, s->cap * sizeof *s->slots);
    pool_give(s->arena.data, s->arena.cap);
    memset(s, 0, sizeof *s);
}

static inline int keyset_grow(KeySet *s) {
    size_t cap = s->cap ? s->cap * 2 : FIRST_ROOM / sizeof(KeySlot), bytes = cap * sizeof(KeySlot);
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

/* The key's slot, or NULL. */
static inline KeySlot *keyset_find(const KeySet *s, const uint8_t *k, int n, uint64_t h) {
    if (!s->size) return NULL;
    for (size_t j = h & (s->cap - 1); s->slots[j].hash; j = (j + 1) & (s->cap - 1))
        if (keyset_at(s, j, k, n, h)) return &s->slots[j];
    return NULL;
}

/* Adds the key with ``value``; 1 if it was new, 0 if there, -1 out of memory. */
static inline int keyset_put(KeySet *s, const uint8_t *k, int n, uint64_t h, uint32_t value) {
    if ((s->size + 1) * 2 > s->cap && keyset_grow(s)) return -1;
    size_t j = h & (s->cap - 1);
    for (; s->slots[j].hash; j = (j + 1) & (s->cap - 1))
        if (keyset_at(s, j, k, n, h)) return 0;
    if (bytes_reserve(&s->arena, (size_t)n + 2) || s->arena.size + n + 2 > NONE32) return -1;
    s->slots[j].hash = h;
    s->slots[j].at = (uint32_t)s->arena.size;
    s->slots[j].value = value;
    s->arena.data[s->arena.size] = (uint8_t)(n >> 8);
    s->arena.data[s->arena.size + 1] = (uint8_t)n;
    memcpy(s->arena.data + s->arena.size + 2, k, n);
    s->arena.size += (size_t)n + 2;
    s->size++;
    return 1;
}

static inline int keyset_add(KeySet *s, const uint8_t *k, int n, uint64_t h) {
    return keyset_put(s, k, n, h, 0);
}

static inline int keyset_has(const KeySet *s, const uint8_t *k, int n, uint64_t h) {
    return keyset_find(s, k, n, h) != NULL;
}

/* A search node: how it was reached (search.py's (parent, moves, depth)). */
typedef struct { uint32_t parent, moves, depth, slot, nmoves; } Node;   /* nmoves moves of move_bytes */
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

static inline int entry_less(const Entry *a, const Entry *b) {
    return a->prio < b->prio || (a->prio == b->prio && a->order < b->order);
}

static inline int cmp_entry(const void *a, const void *b) {
    return entry_less(a, b) ? -1 : entry_less(b, a) ? 1 : 0;
}


/* ------------------------------------------------------------------ the loop */

typedef struct {
    double depth_weight, explore;
    size_t table_half, frontier_size;
    size_t slot_bytes;                  /* an encoded position, at most (the family's) */
    KeySet table, old_table;
    Node *nodes; size_t nnodes, cnodes;
    Bytes moves;                        /* move_bytes a move */
    size_t move_bytes;                  /* a move's bytes (the kernel's) */
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
    uint64_t *taken; size_t ctaken;     /* frontier.py's taken: a bit an order, ctaken words */
    size_t ntaken;                      /* the bits set: the stale copies in heap and buckets */
    size_t stale_most;                  /* frontier.py's STALE_MOST (NativeSearch sets it) */
    /* a pooled proof: the _Closure's two KeyPools' keys, or NULL; pooled_all: every key in
     * the tables is among ``generated_keys`` */
    KeySet *expanded, *generated_keys;
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
    const char *error;                  /* why the last call failed, NULL: out of memory */
    Bytes *asked;                       /* a probe's keys asked, each its length (2 bytes) first, or NULL */
    /* a dead-end test in place of the kernel's (search_core's ``dead`` argument, for the
     * tests): 1 dead, 0 not, -1 failed; NULL: the kernel's own */
    int (*dead_hook)(void *hook_arg, const uint8_t *slot);
    void *hook_arg;
    int skip_dead_ends;                 /* a probe asked without the dead-end test */
} Loop;

/* A loop as ``_Search.__init__`` makes it: ``table_size`` keys in two generations. */
static inline void loop_init(Loop *L, double depth_weight, double explore, long long table_half,
                             long long frontier_size, size_t slot_bytes, size_t move_bytes) {
    memset(L, 0, sizeof *L);
    L->depth_weight = depth_weight;
    L->explore = explore;
    L->table_half = table_half > 0 ? (size_t)table_half : 0;          /* 0: evict at every key */
    L->frontier_size = frontier_size > 0 ? (size_t)frontier_size : 0; /* 0: trim at every expansion */
    L->slot_bytes = slot_bytes;
    L->move_bytes = move_bytes;
    L->complete = 1;
    L->best_node = -1;
    L->node_mark = L->nodes_least = NODES_LEAST;
    L->stale_most = SIZE_MAX;                                          /* until told: never sweep */
    mt_seed_zero(&L->rng);
}

static inline int64_t loop_new_node(Loop *L, uint32_t parent, const void *moves, int nm, uint32_t depth) {
    size_t bytes = L->move_bytes * (size_t)nm;
    if (L->nnodes >= NONE32) return -1;
    if (grow_from((void **)&L->nodes, &L->cnodes, L->nnodes + 1, sizeof(Node), FIRST_ROOM)) return -1;
    if (bytes_reserve(&L->moves, bytes) || L->moves.size + bytes > NONE32) return -1;
    Node *n = &L->nodes[L->nnodes];
    n->parent = parent; n->moves = (uint32_t)L->moves.size; n->nmoves = (uint32_t)nm;
    n->depth = depth; n->slot = NONE32;
    if (bytes) memcpy(L->moves.data + L->moves.size, moves, bytes);
    L->moves.size += bytes;
    return (int64_t)L->nnodes++;
}

/* A slot of ``slot_bytes`` for ``node``'s position, for the family to encode it in. */
static inline uint8_t *loop_store(Loop *L, uint32_t node) {
    uint32_t slot;
    if (L->nfree) slot = L->free_slots[--L->nfree];
    else {
        if (grow_from((void **)&L->slots, &L->cslots, (L->nslots + 1) * L->slot_bytes, 1, FIRST_ROOM)) return NULL;
        slot = (uint32_t)L->nslots++;
    }
    L->nodes[node].slot = slot;
    return L->slots + (size_t)slot * L->slot_bytes;
}

/* The encoded position of a node that still has one. */
static inline const uint8_t *loop_position(const Loop *L, uint32_t node) {
    return L->slots + (size_t)L->nodes[node].slot * L->slot_bytes;
}

static inline int loop_release_slot(Loop *L, uint32_t node) {
    uint32_t slot = L->nodes[node].slot;
    if (slot == NONE32) return 0;
    if (grow((void **)&L->free_slots, &L->cfree, L->nfree + 1, sizeof(uint32_t))) return -1;
    L->free_slots[L->nfree++] = slot;
    L->nodes[node].slot = NONE32;
    return 0;
}

static inline int heap_push(Loop *L, Entry e) {
    if (grow_from((void **)&L->heap, &L->cheap, L->nheap + 1, sizeof(Entry), FIRST_ROOM)) return -1;
    size_t i = L->nheap++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!entry_less(&e, &L->heap[up])) break;
        L->heap[i] = L->heap[up]; i = up;
    }
    L->heap[i] = e;
    return 0;
}

/* ``e`` put in the hole at ``i``, moved down past its smaller children. */
static inline void heap_sift(Loop *L, size_t i, Entry e) {
    size_t n = L->nheap;
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= n) break;
        size_t best = l + 1 < n && entry_less(&L->heap[l + 1], &L->heap[l]) ? l + 1 : l;
        if (!entry_less(&L->heap[best], &e)) break;
        L->heap[i] = L->heap[best]; i = best;
    }
    L->heap[i] = e;
}

static inline Entry heap_pop(Loop *L) {
    Entry top = L->heap[0], last = L->heap[--L->nheap];
    if (L->nheap) heap_sift(L, 0, last);
    return top;
}

/* frontier.py's kinds: (int(priority), depth) -> a bucket, listed in ``types`` while it
 * has not been found empty. */
static inline int64_t bucket_of(Loop *L, Entry e) {
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

static inline int loop_push(Loop *L, Entry e) {
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

static inline int frontier_take(Loop *L, int64_t order) {
    size_t i = (size_t)(-order);
    if (i / 64 >= L->ctaken) {
        size_t old = L->ctaken;
        if (grow((void **)&L->taken, &L->ctaken, i / 64 + 1, sizeof(uint64_t))) return -1;
        memset(L->taken + old, 0, (L->ctaken - old) * sizeof(uint64_t));
    }
    L->taken[i / 64] |= 1ull << (i % 64);
    L->ntaken++;
    return 0;
}

static inline int is_taken(const Loop *L, int64_t order) {
    size_t i = (size_t)(-order);
    return i / 64 < L->ctaken && (L->taken[i / 64] >> (i % 64) & 1);
}

/* A stale copy dropped: its order is no longer taken. */
static inline void frontier_untake(Loop *L, int64_t order) {
    size_t i = (size_t)(-order);
    L->taken[i / 64] &= ~(1ull << (i % 64));
    L->ntaken--;
}

static inline Entry pop_best(Loop *L) {
    for (;;) {
        Entry e = heap_pop(L);
        if (!is_taken(L, e.order)) return e;
        frontier_untake(L, e.order);
    }
}

static inline Entry pop_random(Loop *L) {
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
        frontier_untake(L, e.order);
    }
}

/* Frontier._sweep: the stale copies out of the heap and the buckets, each bucket keeping its
 * order, and its room cut to what it holds now (``shrink``): the search leaves its kinds
 * behind as it goes deeper, and their buckets would otherwise keep the room of the most
 * entries they ever held. The heap is made again in its own way, not heapq's: its pops do not
 * depend on its layout, since no two entries are equal (each has its order). */
static inline void frontier_sweep(Loop *L) {
    size_t m = 0;
    for (size_t i = 0; i < L->nheap; i++)
        if (!is_taken(L, L->heap[i].order)) L->heap[m++] = L->heap[i];
    L->nheap = m;
    for (size_t i = m / 2; i-- > 0;) heap_sift(L, i, L->heap[i]);
    for (size_t b = 0; b < L->nbuckets; b++) {
        Bucket *B = &L->buckets[b];
        size_t k = 0;
        for (size_t i = 0; i < B->size; i++)
            if (!is_taken(L, B->items[i].order)) B->items[k++] = B->items[i];
        B->size = k;
        shrink((void **)&B->items, &B->cap, B->size, sizeof(Entry));
    }
    memset(L->taken, 0, L->ctaken * sizeof(uint64_t));
    L->ntaken = 0;
}

/* The room of the exploring frontier's buckets, in bytes (its entries by kind). */
static inline size_t loop_bucket_bytes(const Loop *L) {
    size_t bytes = 0;
    for (size_t b = 0; b < L->nbuckets; b++) bytes += L->buckets[b].cap * sizeof(Entry);
    return bytes;
}

/* Frontier.pop: the best entry, or with ``explore`` sometimes one of a random kind. */
static inline int loop_pop(Loop *L, Entry *out) {
    L->waiting--;
    if (L->explore <= 0.0) { *out = heap_pop(L); return 0; }
    *out = mt_random(&L->rng) < L->explore ? pop_random(L) : pop_best(L);
    if (frontier_take(L, out->order)) return -1;
    if (L->ntaken > L->stale_most) frontier_sweep(L);
    return 0;
}

static inline void clear_frontier(Loop *L) {
    for (size_t b = 0; b < L->nbuckets; b++) GIVE(L->buckets[b].items, L->buckets[b].cap, sizeof(Entry));
    GIVE(L->buckets, L->cbuckets, sizeof(Bucket)); L->nbuckets = 0;
    free(L->kind_key); free(L->kind_bucket);
    L->kind_key = NULL; L->kind_bucket = NULL; L->kind_cap = L->kind_size = 0;
    GIVE(L->types, L->ctypes, sizeof(uint32_t)); L->ntypes = 0;
    if (L->taken) memset(L->taken, 0, L->ctaken * sizeof(uint64_t));
    L->ntaken = 0;
    L->nheap = 0; L->waiting = 0;
}

/* Frontier.keep: the best ``n`` waiting entries stay, pushed again best first; with
 * ``back`` (Frontier.keep's ``back``), the ``nback`` entries popped before and held since
 * are among them. */
static inline int keep_with(Loop *L, size_t n, const Entry *back, size_t nback) {
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
static inline int loop_trim(Loop *L) {
    if (L->waiting <= L->frontier_size) return 0;
    if (keep(L, L->frontier_size / 2)) return -1;
    L->complete = 0;
    return 0;
}

/* A key noted in ``asked`` (a probe's: search_core's successors), its length first. */
static inline int note_key(Bytes *asked, const uint8_t *k, int n) {
    if (bytes_reserve(asked, (size_t)n + 2)) return -1;
    asked->data[asked->size] = (uint8_t)(n >> 8);
    asked->data[asked->size + 1] = (uint8_t)n;
    memcpy(asked->data + asked->size + 2, k, (size_t)n);
    asked->size += (size_t)n + 2;
    return 0;
}

/* Do the tables hold the key? */
static inline int loop_holds(const Loop *L, const uint8_t *k, int n, uint64_t h) {
    return keyset_has(&L->table, k, n, h) || (L->old_table.size && keyset_has(&L->old_table, k, n, h));
}

#define ANY_COUNT 0xff   /* search.py's ANY: in place of the waste's count, any count */

/* A key neither table holds put in the newer one with ``value``: 1, or -1 (out of memory). */
static inline int loop_insert(Loop *L, const uint8_t *k, int n, uint64_t h, uint32_t value) {
    size_t size = L->table.size;
    if (keyset_put(&L->table, k, n, h, value) < 0) return -1;
    if (size + 1 >= L->table_half) {                 /* evict the older generation */
        keyset_free(&L->old_table);
        L->old_table = L->table;
        memset(&L->table, 0, sizeof L->table);
    }
    return 1;
}

/* _Search._record: the key put in the tables. 1, 0 (they hold it already) or -1 (out of
 * memory). The newer table first, where most keys seen again are: the same answer as
 * search.py's order, since the two tables never share a key (a key enters the newer one only
 * when the older one lacks it, and the newer one starts empty). */
static inline int loop_record(Loop *L, const uint8_t *k, int n, uint64_t h) {
    return loop_holds(L, k, n, h) ? 0 : loop_insert(L, k, n, h, 0);
}

/* _Search.admit (and _admit_pooled): is the key new to this search (it is recorded)? 1, 0,
 * or -1 (out of memory, or ``error`` says why). The key's buffer is zero for 8 bytes past its
 * end (hash_bytes reads them).
 *
 * _admit_pooled adds every key asked to the closure's generated keys. With ``pooled_all``
 * (every key the tables hold is among them already: checked when the search joins) only a
 * key new to the tables is added there: a key they refuse was added when it was admitted,
 * and a set only grows, so the set is the same, a look-up a child fewer. */
static inline int loop_admit_hashed(Loop *L, const uint8_t *k, int n, uint64_t h) {
    if (n > KEY_MAX) { L->error = "search_core: a key longer than it keeps"; return -1; }
    if (L->asked && note_key(L->asked, k, n)) return -1;
    if (L->generated_keys && !L->pooled_all && keyset_add(L->generated_keys, k, n, h) < 0) return -1;
    L->generated++;
    int added = loop_record(L, k, n, h);
    if (added == 1 && L->pooled_all && keyset_add(L->generated_keys, k, n, h) < 0) return -1;
    return added;
}

/* loop_admit with the key's hash made beforehand (hash_bytes(k, n)): a family that makes an
 * expansion's keys first fetches their slots ahead (loop_prefetch, loop_prefetch_key), then
 * asks them in the order the Python expander asks them. */
static inline int loop_admit(Loop *L, const uint8_t *k, int n) {
    return loop_admit_hashed(L, k, n, hash_bytes(k, n));
}

/* search.py's counts_taken: the counts of a position taken, once count ``w`` of ``n`` is
 * taken too, or NO_COUNTS where a count taken reaches ``w`` by turns (the argument is there). */
#define NO_COUNTS 0xFFFFFFFFu
static inline uint32_t counts_taken(uint32_t taken, int n, int w, int turns) {
    if (w % turns == 0 || w == n) return taken ? NO_COUNTS : 1;      /* on the cycle */
    int shift = 8 * (w % turns);
    uint32_t least = taken >> shift & 0xFF;
    if (least && least <= (uint32_t)w) return NO_COUNTS;
    return (taken & ~(0xFFu << shift)) | (uint32_t)w << shift | 1;
}

/* _Search._admit_turned: loop_admit for a stock turned ``turns`` cards at a time (at most
 * MOST_TURNS) with unlimited redeals, whose key ends with the reserve's size and the waste's
 * count; 0 also where a position taken reaches this one by turns alone. The tables hold one
 * key for all the counts of a position, ANY_COUNT in place of its count, and the counts
 * taken as its slot's value. The key's last byte is changed meanwhile and put back. A probe
 * and a pooled search admit as loop_admit does, as search.py's do. */
#define MOST_TURNS 4   /* search.py's MOST_TURNS (tests/test_native_interlock.py runs a draw of 5) */
static inline int loop_admit_turned(Loop *L, uint8_t *k, int n, int turns) {
    if (L->asked || L->generated_keys) return loop_admit(L, k, n);
    if (n > KEY_MAX) { L->error = "search_core: a key longer than it keeps"; return -1; }
    L->generated++;
    int size = k[n - 2], w = k[n - 1];
    k[n - 1] = ANY_COUNT;
    uint64_t h = hash_bytes(k, n);
    KeySlot *slot = keyset_find(&L->table, k, n, h);
    if (!slot && L->old_table.size) slot = keyset_find(&L->old_table, k, n, h);
    uint32_t now = counts_taken(slot ? slot->value : 0, size, w, turns);
    int added = now != NO_COUNTS;
    if (added && slot) slot->value = now;            /* where it is: the tables never share a key */
    else if (added) added = loop_insert(L, k, n, h, now);
    k[n - 1] = (uint8_t)w;
    return added;
}

/* The fetches ahead are inlined always: GCC finds a function whose only effect is a prefetch
 * free of effects, and drops the calls to it that it has not inlined by then. */
#define PREFETCHING static inline __attribute__((always_inline)) void

PREFETCHING prefetch_slot(const KeySet *t, uint64_t h) {
    if (t->cap) __builtin_prefetch(&t->slots[h & (t->cap - 1)]);
}

/* The key in the first slot a hash looks at, when its hash is that one (a key seen before). */
PREFETCHING prefetch_key(const KeySet *t, uint64_t h) {
    if (!t->cap) return;
    const KeySlot *slot = &t->slots[h & (t->cap - 1)];
    if (slot->hash == h) __builtin_prefetch(t->arena.data + slot->at);
}

/* The first slot of a key of hash ``h`` in both tables and in a pooled proof's generated keys,
 * fetched ahead of loop_admit_hashed. */
PREFETCHING loop_prefetch(const Loop *L, uint64_t h) {
    prefetch_slot(&L->table, h);
    prefetch_slot(&L->old_table, h);
    if (L->generated_keys) prefetch_slot(L->generated_keys, h);
}

/* Its key too, where that slot holds its hash (once the slot is fetched: a second pass). */
PREFETCHING loop_prefetch_key(const Loop *L, uint64_t h) {
    prefetch_key(&L->table, h);
    prefetch_key(&L->old_table, h);
}

/* The start (``_Search.seed``) at ``depth`` moves (where a family's move may stand for more
 * than one of the engine's): its key in the table, its node, its entry. 0, or -1 (out of
 * memory); *slot: where the family encodes the position. */
static inline int loop_seed_at(Loop *L, const uint8_t *key, int n, const void *moves, int nm, uint32_t depth,
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
static inline int loop_child(Loop *L, uint32_t parent, const void *moves, int nm, uint32_t depth,
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

static inline int loop_next(Loop *L, Entry *e, KeyOf key_of, void *family, uint8_t *key) {
    if (loop_pop(L, e)) return -1;
    if (L->expanded) {
        int n = key_of(family, loop_position(L, e->node), key);
        uint64_t h = hash_bytes(key, n);
        if (L->portfolio_expanded >= L->pool_after && keyset_has(L->expanded, key, n, h)) {
            L->skipped++;
            if (L->hold) {
                if (grow((void **)&L->held, &L->cheld, L->nheld + 1, sizeof(Entry))) return -1;
                L->held[L->nheld++] = *e;
                return 0;
            }
            return loop_release_slot(L, e->node) ? -1 : 0;
        }
        if (keyset_add(L->expanded, key, n, h) < 0) return -1;
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
/* The frontier's stale copies (``taken``) keep no node: they are dropped when drawn, their
 * node unread. The held entries are all taken (popped) and keep theirs. */
static inline void mark_entries(const Loop *L, uint32_t *map, const Entry *e, size_t n, int stale_too) {
    for (size_t i = 0; i < n; i++)
        if (stale_too || !is_taken(L, e[i].order)) map[e[i].node] = 0;
}

static inline void renumber_entries(const Loop *L, const uint32_t *map, Entry *e, size_t n, int stale_too) {
    for (size_t i = 0; i < n; i++)
        if (stale_too || !is_taken(L, e[i].order)) e[i].node = map[e[i].node];
}

/* 0, or -1 (out of memory: nothing changed). With ``all_entries`` 0 only the best node's line
 * stays (the frontier is gone). */
static inline int loop_compact(Loop *L, int all_entries) {
    size_t n = L->nnodes, bytes = n * sizeof(uint32_t), live = 0, at = 0;
    if (!n) return 0;
    uint32_t *map = pool_take(&bytes);
    if (!map) return -1;
    memset(map, 0xFF, n * sizeof(uint32_t));                  /* NONE32: dead */
    if (all_entries) {
        mark_entries(L, map, L->heap, L->nheap, 0);
        for (size_t b = 0; b < L->nbuckets; b++)
            mark_entries(L, map, L->buckets[b].items, L->buckets[b].size, 0);
        mark_entries(L, map, L->held, L->nheld, 1);
    }
    if (L->best_node >= 0) map[L->best_node] = 0;
    for (size_t i = n; i-- > 0;)
        if (map[i] != NONE32 && L->nodes[i].parent != NONE32) map[L->nodes[i].parent] = 0;
    for (size_t i = 0; i < n; i++) {
        if (map[i] == NONE32) continue;
        Node node = L->nodes[i];
        size_t size = L->move_bytes * node.nmoves;
        memmove(L->moves.data + at, L->moves.data + node.moves, size);
        node.moves = (uint32_t)at;
        at += size;
        if (node.parent != NONE32) node.parent = map[node.parent];
        L->nodes[live] = node;
        map[i] = (uint32_t)live++;
    }
    if (all_entries) {
        renumber_entries(L, map, L->heap, L->nheap, 0);
        for (size_t b = 0; b < L->nbuckets; b++)
            renumber_entries(L, map, L->buckets[b].items, L->buckets[b].size, 0);
        renumber_entries(L, map, L->held, L->nheld, 1);
    }
    if (L->best_node >= 0) L->best_node = map[L->best_node];
    pool_give(map, bytes);
    L->nnodes = live;
    L->moves.size = at;
    L->node_mark = live * 2 > L->nodes_least ? live * 2 : L->nodes_least;
    return 0;
}

/* The node arrays cut to what the nodes left use (a finished search: loop_release). */
static inline int loop_shrink_nodes(Loop *L) {
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

/* ------------------------------------------------------------------ a kernel's expansion */

/* What a family's expansion returns: the won node (>= 0), or one of these. */
#define EXPANDED (-1)                   /* expanded, no win among the children */
#define SKIPPED (-2)                    /* popped, left to the pooled search that expanded it */
#define FAILED (-3)                     /* out of memory, or ``error`` says why */

/* Gives back every buffer of the loop (to the pool) but the nodes and their moves. */
static inline void loop_free_frontier_and_tables(Loop *L) {
    keyset_free(&L->table); keyset_free(&L->old_table);
    clear_frontier(L);
    GIVE(L->heap, L->cheap, sizeof(Entry));
    GIVE(L->held, L->cheld, sizeof(Entry)); L->nheld = 0;
    GIVE(L->taken, L->ctaken, sizeof(uint64_t));
    GIVE(L->slots, L->cslots, 1); L->nslots = 0;
    GIVE(L->free_slots, L->cfree, sizeof(uint32_t)); L->nfree = 0;
}

/* Out of a pooled proof. */
static inline void loop_unpool(Loop *L) {
    L->expanded = L->generated_keys = NULL;
    L->pooled_all = 0;
}

static inline void loop_free_all(Loop *L) {
    loop_free_frontier_and_tables(L);
    GIVE(L->nodes, L->cnodes, sizeof(Node)); L->nnodes = 0;
    GIVE(L->moves.data, L->moves.cap, 1); L->moves.size = 0;
    loop_unpool(L);
}

#endif
