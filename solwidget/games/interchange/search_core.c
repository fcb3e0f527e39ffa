/* The Interchange family's search, compiled: solver/search.py's best-first search with
 * InterchangeExpander's successors (expander.py), score (solver/heuristics.py) and key
 * (solver/keys.py's _cycle_key), in C, for the games where expander.fast_path holds
 * (Triple and Quadruple Interchange, and variants of their shape).
 *
 * It is a second writing of what those Python files say, not a source of rules: every
 * table it plays by (which card goes on which, what an empty pile takes, the pile layout,
 * the decks, the score's weights) is handed to it by native.py, which reads them from the
 * game, and it expands the same positions in the same order as the Python search: the
 * same successors (moves.py's plans with every=False, then the home bridges and the
 * bridges of reductions.py worked out on the reserve's turning cycle, each followed by the
 * same safe moves home), the same keys asked in the same order (a child's key asked
 * before the child is made where expander.py's _asked and _homed ask it), the same
 * scores (heuristics.py's patience score, a tableau move's or bridge's made from its
 * parent's by the two piles that change, as moves_from does), the same frontier, draws,
 * tables, evictions, trims and pooled proofs (search.py's _Closure: its two sets of bytes
 * keys, held here as KeyPools). tests/test_native_interchange.py compares the two
 * successor by successor and search by search; the solver replays every win through
 * State.play.
 *
 * A position is kept as bytes: each foundation as its top card (0 when empty: it holds
 * the Ace up to it), each tableau pile as its length and its cards, then the reserve (the
 * stock and waste as one turning cycle, expander.py's reserve): its length, how many of
 * it lie on the waste, its cards from the waste's bottom (face up), and the redeals made
 * (4 bytes, little-endian). The key is _cycle_key's bytes: the foundations sorted and
 * joined by 0xff, 0xfe, the cells' part (none: empty), 0xfe, then each tableau pile's
 * cards and 0xff, these sorted as bytes; the stock and waste left out.
 *
 * A node's moves are 16-bit codes: TURNS | k for k turns of the stock, REDEAL, or
 * (source << 9) | (destination << 4) | cards for a move between piles; native.py maps
 * them back to the engine's Move objects (line()).
 *
 * Scores are sums of counts times weights. native.py uses this core only when every weight
 * and the depth weight are multiples of 1/1024 below 2^20: then every partial sum is exact
 * in a double, so any order of adding gives the Python score to the last bit. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 32          /* piles */
#define MAXH 64          /* cards in one tableau pile */
#define MAXR 255         /* cards in the stock and waste */
#define MAXCODES 1024    /* move codes of one successor */
#define NONE32 0xFFFFFFFFu
#define KEYBUF (256 + 8) /* a key (at most 255 bytes), and the zeros its hash reads past its end */
#define FACE_DOWN 64
#define TURNS 0x8000u    /* TURNS | k: k turns of the stock */
#define REDEAL 0x4000u   /* the waste turned over to the stock */
#define PLAY(src, dst, n) ((uint16_t)((src) << 9 | (dst) << 4 | (n)))

/* ------------------------------------------------------------------ the rules' tables */

typedef struct {
    int np, nf, nt, F0, T0, S, W;     /* piles: the foundations, the tableau, stock, waste */
    uint8_t fits[128][128];           /* fits[under][over]: over may be built on under */
    uint8_t fits_on[128][64];         /* the cards that fit on a card, in Python's set order */
    uint8_t nfits[128];
    uint8_t empty_takes[128];         /* an empty tableau pile takes a run headed by the card */
    uint8_t builds[128][128];         /* the build's fits (face-down or not): the unsorted weight's */
    int decks, total;
    double w_home, w_block, w_urgent, w_buried, w_down, w_empty, w_reserve, w_unsorted;
    int slot;                         /* bytes of an encoded position, at most */
} Rules;

/* The piles but the stock and waste: a foundation as c[f][0], its top (len 0 or 1). */
typedef struct { uint8_t len[MAXP]; uint8_t c[MAXP][MAXH]; } Pos;
/* expander.py's reserve: ``order`` the waste bottom to top then the stock from its top,
 * ``now`` cards of it on the waste, ``redeals`` made so far. */
typedef struct { int olen, now; uint32_t redeals; uint8_t order[MAXR + 1]; } Reserve;

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

/* A set of keys: open addressing on a 64-bit hash, the keys in an arena (length first). */
typedef struct { uint64_t *hash; uint32_t *at; size_t cap, size; Bytes arena; } KeySet;

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

static void keyset_free(KeySet *s) {
    pool_give(s->hash, s->cap * sizeof *s->hash);
    pool_give(s->at, s->cap * sizeof *s->at);
    pool_give(s->arena.data, s->arena.cap);
    memset(s, 0, sizeof *s);
}

static int keyset_grow(KeySet *s) {
    size_t cap = s->cap ? s->cap * 2 : 1024, hash_bytes = cap * 8, at_bytes = cap * 4;
    uint64_t *hash = pool_take(&hash_bytes);
    uint32_t *at = pool_take(&at_bytes);
    if (!hash || !at) { pool_give(hash, hash_bytes); pool_give(at, at_bytes); return -1; }
    memset(hash, 0, cap * sizeof *hash);
    for (size_t i = 0; i < s->cap; i++) {
        if (!s->hash[i]) continue;
        size_t j = s->hash[i] & (cap - 1);
        while (hash[j]) j = (j + 1) & (cap - 1);
        hash[j] = s->hash[i]; at[j] = s->at[i];
    }
    pool_give(s->hash, s->cap * sizeof *s->hash);
    pool_give(s->at, s->cap * sizeof *s->at);
    s->hash = hash; s->at = at; s->cap = cap;
    return 0;
}

static int keyset_has(const KeySet *s, const uint8_t *k, int n, uint64_t h) {
    if (!s->size) return 0;
    for (size_t j = h & (s->cap - 1); s->hash[j]; j = (j + 1) & (s->cap - 1)) {
        const uint8_t *there = s->arena.data + s->at[j];
        if (s->hash[j] == h && there[0] == n && !memcmp(there + 1, k, n)) return 1;
    }
    return 0;
}

/* Adds the key; 1 if it was new, 0 if there, -1 out of memory. */
static int keyset_add(KeySet *s, const uint8_t *k, int n, uint64_t h) {
    if ((s->size + 1) * 2 > s->cap && keyset_grow(s)) return -1;
    size_t j = h & (s->cap - 1);
    for (; s->hash[j]; j = (j + 1) & (s->cap - 1)) {
        const uint8_t *there = s->arena.data + s->at[j];
        if (s->hash[j] == h && there[0] == n && !memcmp(there + 1, k, n)) return 0;
    }
    if (bytes_reserve(&s->arena, (size_t)n + 1) || s->arena.size + n + 1 > NONE32) return -1;
    s->hash[j] = h;
    s->at[j] = (uint32_t)s->arena.size;
    s->arena.data[s->arena.size] = (uint8_t)n;
    memcpy(s->arena.data + s->arena.size + 1, k, n);
    s->arena.size += (size_t)n + 1;
    s->size++;
    return 1;
}

/* A search node: how it was reached (search.py's (parent, moves, depth)). */
/* Interchange: nmoves counts 16-bit move codes (a bridge has many); moves is their offset. */
typedef struct { uint32_t parent, moves, depth, slot; uint16_t nmoves; } Node;
typedef struct { double prio; int64_t order; uint32_t node; } Entry;
typedef struct { Entry *items; size_t size, cap; int listed; } Bucket;

static int entry_less(const Entry *a, const Entry *b) {
    return a->prio < b->prio || (a->prio == b->prio && a->order < b->order);
}

static int cmp_entry(const void *a, const void *b) {
    return entry_less(a, b) ? -1 : entry_less(b, a) ? 1 : 0;
}

/* ------------------------------------------------------------------ the search */

typedef struct {
    PyObject_HEAD
    Rules R;
    double depth_weight, explore;
    size_t table_half, frontier_size;
    KeySet table, old_table;
    Node *nodes; size_t nnodes, cnodes;
    Bytes moves;                        /* Interchange: 2 bytes a move code */
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
    /* Interchange: the pooled proof (search.py's _Closure: its two key sets, KeyPools
     * below, or NULL: ``pooled`` holds the Python objects), the portfolio's expansions so
     * far for POOL_AFTER, the positions skipped; a Python dead-end test (NULL: the C
     * one); the keys asked, for the tests (or NULL). */
    KeySet *expanded, *generated_keys;
    int pooled_all;                     /* every key of the tables is among generated_keys */
    PyObject *pooled[2], *dead, *trace;
    long long progress, pool_after, skipped;
} Search;

static int encode(const Rules *R, const Pos *p, const Reserve *rv, uint8_t *b);

/* Interchange: the moves are 16-bit codes. */
static int64_t new_node(Search *S, uint32_t parent, const uint16_t *m, int nm, uint32_t depth) {
    if (grow((void **)&S->nodes, &S->cnodes, S->nnodes + 1, sizeof(Node))) return -1;
    if (bytes_reserve(&S->moves, 2 * (size_t)nm) || S->moves.size + 2 * (size_t)nm > NONE32) return -1;
    Node *n = &S->nodes[S->nnodes];
    n->parent = parent; n->moves = (uint32_t)S->moves.size; n->nmoves = (uint16_t)nm;
    n->depth = depth; n->slot = NONE32;
    memcpy(S->moves.data + S->moves.size, m, 2 * (size_t)nm);
    S->moves.size += 2 * (size_t)nm;
    return (int64_t)S->nnodes++;
}

static int store(Search *S, uint32_t node, const Pos *p, const Reserve *rv) {   /* Interchange: + reserve */
    uint32_t slot;
    if (S->nfree) slot = S->free_slots[--S->nfree];
    else {
        if (grow((void **)&S->slots, &S->cslots, (S->nslots + 1) * S->R.slot, 1)) return -1;
        slot = (uint32_t)S->nslots++;
    }
    encode(&S->R, p, rv, S->slots + (size_t)slot * S->R.slot);
    S->nodes[node].slot = slot;
    return 0;
}

static int release_slot(Search *S, uint32_t node) {
    uint32_t slot = S->nodes[node].slot;
    if (slot == NONE32) return 0;
    if (grow((void **)&S->free_slots, &S->cfree, S->nfree + 1, sizeof(uint32_t))) return -1;
    S->free_slots[S->nfree++] = slot;
    S->nodes[node].slot = NONE32;
    return 0;
}

static int heap_push(Search *S, Entry e) {
    if (grow((void **)&S->heap, &S->cheap, S->nheap + 1, sizeof(Entry))) return -1;
    size_t i = S->nheap++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!entry_less(&e, &S->heap[up])) break;
        S->heap[i] = S->heap[up]; i = up;
    }
    S->heap[i] = e;
    return 0;
}

static Entry heap_pop(Search *S) {
    Entry top = S->heap[0], last = S->heap[--S->nheap];
    size_t i = 0, n = S->nheap;
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= n) break;
        size_t best = l + 1 < n && entry_less(&S->heap[l + 1], &S->heap[l]) ? l + 1 : l;
        if (!entry_less(&S->heap[best], &last)) break;
        S->heap[i] = S->heap[best]; i = best;
    }
    if (n) S->heap[i] = last;
    return top;
}

/* frontier.py's kinds: (int(priority), depth) -> a bucket, listed in ``types`` while it
 * has not been found empty. */
static int64_t bucket_of(Search *S, Entry e) {
    uint64_t stored = (((uint64_t)(int64_t)e.prio << 32) | S->nodes[e.node].depth) + 1;  /* 0: empty slot */
    if ((S->kind_size + 1) * 2 > S->kind_cap) {
        size_t cap = S->kind_cap ? S->kind_cap * 2 : 1024;
        uint64_t *keys = calloc(cap, sizeof *keys);
        uint32_t *vals = malloc(cap * sizeof *vals);
        if (!keys || !vals) { free(keys); free(vals); return -1; }
        for (size_t i = 0; i < S->kind_cap; i++) {
            if (!S->kind_key[i]) continue;
            size_t j = (S->kind_key[i] * 0x9E3779B97F4A7C15ull) >> 20 & (cap - 1);
            while (keys[j]) j = (j + 1) & (cap - 1);
            keys[j] = S->kind_key[i]; vals[j] = S->kind_bucket[i];
        }
        free(S->kind_key); free(S->kind_bucket);
        S->kind_key = keys; S->kind_bucket = vals; S->kind_cap = cap;
    }
    size_t j = (stored * 0x9E3779B97F4A7C15ull) >> 20 & (S->kind_cap - 1);
    while (S->kind_key[j] && S->kind_key[j] != stored) j = (j + 1) & (S->kind_cap - 1);
    uint32_t b;
    if (S->kind_key[j]) b = S->kind_bucket[j];
    else {
        if (grow((void **)&S->buckets, &S->cbuckets, S->nbuckets + 1, sizeof(Bucket))) return -1;
        b = (uint32_t)S->nbuckets++;
        memset(&S->buckets[b], 0, sizeof(Bucket));
        S->kind_key[j] = stored; S->kind_bucket[j] = b; S->kind_size++;
    }
    if (!S->buckets[b].listed) {
        if (grow((void **)&S->types, &S->ctypes, S->ntypes + 1, sizeof(uint32_t))) return -1;
        S->types[S->ntypes++] = b;
        S->buckets[b].listed = 1;
    }
    return b;
}

static int push(Search *S, Entry e) {
    if (heap_push(S, e)) return -1;
    S->waiting++;
    if (S->explore > 0.0) {
        int64_t b = bucket_of(S, e);
        if (b < 0) return -1;
        Bucket *B = &S->buckets[b];
        if (grow((void **)&B->items, &B->cap, B->size + 1, sizeof(Entry))) return -1;
        B->items[B->size++] = e;
    }
    return 0;
}

static int mark_taken(Search *S, int64_t order, uint8_t value) {
    size_t i = (size_t)(-order);
    if (i >= S->ctaken) {
        size_t old = S->ctaken;
        if (grow((void **)&S->taken, &S->ctaken, i + 1, 1)) return -1;
        memset(S->taken + old, 0, S->ctaken - old);
    }
    S->taken[i] = value;
    return 0;
}

static int is_taken(const Search *S, int64_t order) {
    size_t i = (size_t)(-order);
    return i < S->ctaken && S->taken[i];
}

static Entry pop_best(Search *S) {
    for (;;) {
        Entry e = heap_pop(S);
        if (!is_taken(S, e.order)) return e;
        S->taken[-e.order] = 0;
    }
}

static Entry pop_random(Search *S) {
    for (;;) {
        uint32_t i = mt_below(&S->rng, (uint32_t)S->ntypes);
        Bucket *B = &S->buckets[S->types[i]];
        if (!B->size) {                               /* an emptied kind goes for good */
            B->listed = 0;
            S->types[i] = S->types[S->ntypes - 1];
            S->ntypes--;
            continue;
        }
        uint32_t j = mt_below(&S->rng, (uint32_t)B->size);
        Entry e = B->items[j];
        B->items[j] = B->items[B->size - 1];
        B->size--;
        if (!is_taken(S, e.order)) return e;
        S->taken[-e.order] = 0;
    }
}

static int pop(Search *S, Entry *out) {
    S->waiting--;
    if (S->explore <= 0.0) { *out = heap_pop(S); return 0; }
    *out = mt_random(&S->rng) < S->explore ? pop_random(S) : pop_best(S);
    return mark_taken(S, out->order, 1);
}

static void clear_frontier(Search *S) {
    for (size_t b = 0; b < S->nbuckets; b++) GIVE(S->buckets[b].items, S->buckets[b].cap, sizeof(Entry));
    GIVE(S->buckets, S->cbuckets, sizeof(Bucket)); S->nbuckets = 0;
    free(S->kind_key); free(S->kind_bucket);
    S->kind_key = NULL; S->kind_bucket = NULL; S->kind_cap = S->kind_size = 0;
    GIVE(S->types, S->ctypes, sizeof(uint32_t)); S->ntypes = 0;
    if (S->taken) memset(S->taken, 0, S->ctaken);
    S->nheap = 0; S->waiting = 0;
}

/* Frontier.keep: the best ``n`` waiting entries stay, pushed again best first. */
static int keep(Search *S, size_t n) {
    size_t m = 0;
    Entry *waiting = malloc((S->nheap ? S->nheap : 1) * sizeof(Entry));
    if (!waiting) return -1;
    for (size_t i = 0; i < S->nheap; i++)
        if (!is_taken(S, S->heap[i].order)) waiting[m++] = S->heap[i];
    qsort(waiting, m, sizeof(Entry), cmp_entry);
    for (size_t i = n; i < m; i++)
        if (release_slot(S, waiting[i].node)) { free(waiting); return -1; }
    clear_frontier(S);
    for (size_t i = 0; i < m && i < n; i++)
        if (push(S, waiting[i])) { free(waiting); return -1; }
    free(waiting);
    return 0;
}

/* _Search.admit: is the key new to this search (it is recorded)? 1, 0, or -1 (out of
 * memory, or a Python error set). Interchange: with a pooled proof, _admit_pooled: the
 * key goes to the closure's generated keys first; the tests may trace the keys asked. */
static int admit(Search *S, const uint8_t *k, int n) {
    uint64_t h = hash_bytes(k, n);
    /* with pooled_all, a key the tables hold is among generated_keys already: only a new
     * one is added there, below (the same sets, a look-up fewer) */
    if (S->generated_keys && !S->pooled_all && keyset_add(S->generated_keys, k, n, h) < 0) return -1;
    if (S->trace) {
        PyObject *key = PyBytes_FromStringAndSize((const char *)k, n);
        if (!key) return -1;
        int bad = PyList_Append(S->trace, key);
        Py_DECREF(key);
        if (bad) return -1;
    }
    S->generated++;
    if (S->old_table.size && keyset_has(&S->old_table, k, n, h)) return 0;
    size_t size = S->table.size;
    int added = keyset_add(&S->table, k, n, h);
    if (added <= 0) return added;
    if (S->pooled_all && keyset_add(S->generated_keys, k, n, h) < 0) return -1;
    if (size + 1 >= S->table_half) {                 /* evict the older generation */
        keyset_free(&S->old_table);
        S->old_table = S->table;
        memset(&S->table, 0, sizeof S->table);
    }
    return 1;
}

static int push_child(Search *S, uint32_t parent, const uint16_t *m, int nm, uint32_t depth,
                      const Pos *p, const Reserve *rv, double value, int64_t *won) {   /* Interchange: codes, reserve */
    int64_t node = new_node(S, parent, m, nm, depth);
    if (node < 0) return -1;
    if (value == 0.0) { *won = node; return 0; }    /* every card home */
    if (S->best_node < 0 || value < S->best_score) { S->best_score = value; S->best_node = node; }
    if (store(S, (uint32_t)node, p, rv)) return -1;
    S->order--;
    return push(S, (Entry){value + S->depth_weight * depth, S->order, (uint32_t)node});
}

/* ------------------------------------------------------------------ positions */

static void decode(const Rules *R, const uint8_t *b, Pos *p, Reserve *rv) {
    for (int f = R->F0; f < R->F0 + R->nf; f++) {
        p->len[f] = *b ? 1 : 0;
        p->c[f][0] = *b++;
    }
    for (int t = R->T0; t < R->T0 + R->nt; t++) {
        int n = p->len[t] = *b++;
        memcpy(p->c[t], b, n);
        b += n;
    }
    rv->olen = *b++;
    rv->now = *b++;
    memcpy(rv->order, b, rv->olen);
    b += rv->olen;
    rv->redeals = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static int encode(const Rules *R, const Pos *p, const Reserve *rv, uint8_t *b) {
    uint8_t *start = b;
    for (int f = R->F0; f < R->F0 + R->nf; f++) *b++ = p->len[f] ? p->c[f][0] : 0;
    for (int t = R->T0; t < R->T0 + R->nt; t++) {
        int n = p->len[t];
        *b++ = (uint8_t)n;
        memcpy(b, p->c[t], n);
        b += n;
    }
    *b++ = (uint8_t)rv->olen;
    *b++ = (uint8_t)rv->now;
    memcpy(b, rv->order, rv->olen);
    b += rv->olen;
    for (int i = 0; i < 4; i++) *b++ = (uint8_t)(rv->redeals >> (8 * i));
    return (int)(b - start);
}

static void copy_pos(const Rules *R, Pos *to, const Pos *from) {
    memcpy(to->len, from->len, sizeof to->len);
    for (int f = R->F0; f < R->F0 + R->nf; f++) to->c[f][0] = from->c[f][0];
    for (int t = R->T0; t < R->T0 + R->nt; t++) memcpy(to->c[t], from->c[t], from->len[t]);
}

static void copy_reserve(Reserve *to, const Reserve *from) {
    to->olen = from->olen; to->now = from->now; to->redeals = from->redeals;
    memcpy(to->order, from->order, from->olen);
}

/* expander._taken: ``n`` cards off tableau pile ``t``, the card below them turned up;
 * 1 if it was turned (for undo). */
static inline int take(Pos *p, int t, int n) {
    int rest = p->len[t] -= (uint8_t)n;
    if (rest && p->c[t][rest - 1] & FACE_DOWN) { p->c[t][rest - 1] &= ~FACE_DOWN; return 1; }
    return 0;
}

static inline void untake(Pos *p, int t, int n, int turned) {
    if (turned) p->c[t][p->len[t] - 1] |= FACE_DOWN;
    p->len[t] += (uint8_t)n;
}

/* The cards home: a foundation holds the Ace up to its top. */
static int cards_home(const Rules *R, const Pos *p) {
    int home = 0;
    for (int f = R->F0; f < R->F0 + R->nf; f++) if (p->len[f]) home += p->c[f][0] & 15;
    return home;
}

/* ------------------------------------------------------------------ keys (keys.py) */

/* Do tableau piles a and b come in this order among the key's sorted parts (each its
 * cards and 0xff)? */
static inline int pack_cmp(const Pos *p, int a, int b) {
    int la = p->len[a], lb = p->len[b], m = la < lb ? la : lb;
    const uint8_t *x = p->c[a], *y = p->c[b];
    for (int i = 0; i < m; i++)                  /* piles mostly differ at their bottom card */
        if (x[i] != y[i]) return x[i] - y[i];
    return la == lb ? 0 : la < lb ? 1 : -1;      /* 0xff ends the shorter: it comes later */
}

/* The foundations' part with both 0xfe: sorted(bytes(pile)) joined by 0xff, the cells'. */
static int head_of(const Rules *R, const Pos *p, uint8_t *k) {
    uint8_t tops[MAXP];
    int n = 0;
    for (int f = R->F0; f < R->F0 + R->nf; f++) {   /* as bytes, a pile sorts as its top */
        int v = p->len[f] ? p->c[f][0] : 0, j = n++;
        while (j > 0 && tops[j - 1] > v) { tops[j] = tops[j - 1]; j--; }
        tops[j] = (uint8_t)v;
    }
    uint8_t *start = k;
    for (int i = 0; i < n; i++) {
        if (i) *k++ = 0xff;
        if (tops[i]) for (int c = (tops[i] & 0x30) | 1; c <= tops[i]; c++) *k++ = (uint8_t)c;
    }
    *k++ = 0xfe;
    *k++ = 0xfe;
    return (int)(k - start);
}

/* Pile ``t`` put in its place among the ``n`` sorted piles of ``order``. */
static inline void insert_pile(const Pos *p, int *order, int n, int t) {
    int j = n;
    while (j > 0 && pack_cmp(p, order[j - 1], t) > 0) { order[j] = order[j - 1]; j--; }
    order[j] = t;
}

/* The tableau's part of the key: its piles in ``order`` (sorted), each with its 0xff. */
static int packed(const Rules *R, const Pos *p, const int *order, uint8_t *k) {
    uint8_t *start = k;
    for (int i = 0; i < R->nt; i++) {
        int t = order[i], m = p->len[t];
        memcpy(k, p->c[t], m);
        k += m;
        *k++ = 0xff;
    }
    memset(k, 0, 8);
    return (int)(k - start);
}

static void sort_piles(const Rules *R, const Pos *p, int *order) {
    for (int i = 0; i < R->nt; i++) insert_pile(p, order, i, R->T0 + i);   /* a few piles */
}

static int tableau_part(const Rules *R, const Pos *p, uint8_t *k) {
    int order[MAXP];
    sort_piles(R, p, order);
    return packed(R, p, order, k);
}

/* tableau_part of a position whose piles but ``a`` and ``b`` are those of a position
 * whose piles sort as ``before``: the others keep their order, the two are put in. */
static int tableau_part_two(const Rules *R, const Pos *p, const int *before, int a, int b, uint8_t *k) {
    int order[MAXP], n = 0;
    for (int i = 0; i < R->nt; i++)
        if (before[i] != a && before[i] != b) order[n++] = before[i];
    insert_pile(p, order, n, a);
    insert_pile(p, order, n + 1, b);
    return packed(R, p, order, k);
}

static int key_of(const Rules *R, const Pos *p, uint8_t *k) {
    int n = head_of(R, p, k);
    return n + tableau_part(R, p, k + n);
}

/* ------------------------------------------------------------------ scores (heuristics.py) */

/* need_tables for foundations built up from the Ace: need[card & 63]. */
static void need_of(const Rules *R, const Pos *p, int8_t *need) {
    int marks[4][MAXP + 1], nm[4] = {1, 1, 1, 1};
    for (int s = 0; s < 4; s++) marks[s][0] = 0;
    for (int f = R->F0; f < R->F0 + R->nf; f++)
        if (p->len[f]) { int top = p->c[f][0]; marks[top >> 4 & 3][nm[top >> 4 & 3]++] = top & 15; }
    memset(need, 0, 64);
    for (int s = 0; s < 4; s++) {
        int *m = marks[s], n = nm[s], base = s << 4;
        if (n == 1 || R->decks == 1) {
            int level = 0;
            for (int i = 0; i < n; i++) if (m[i] > level) level = m[i];
            for (int r = 1; r < 14; r++) need[base | r] = (int8_t)(r - level);
            continue;
        }
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && m[j - 1] > m[j]; j--) { int x = m[j]; m[j] = m[j - 1]; m[j - 1] = x; }
        int below = 0, k = 0;
        for (int order = 1; order < 14; order++) {
            while (k < n && m[k] < order) below = m[k++];
            need[base | order] = (int8_t)(order - below);
        }
    }
}

/* _pile_valuer's pile_value over scan_pile; an empty pile weighs nothing (PileValues). */
static double pile_value(const Rules *R, const uint8_t *pile, int size, const int8_t *need) {
    if (!size) return 0.0;
    int down = 0, blockers = 0, depth = 0, lowest = 99, deepest = size;
    for (int j = 0; j < size; j++) {
        int card = pile[j], n = need[card & 63];
        if (card & FACE_DOWN) down++;
        if (n > lowest) blockers++;
        else { lowest = n; deepest = j; }
        if (n == 1) depth += size - 1 - j;
    }
    double value = R->w_block * blockers + R->w_urgent * depth + R->w_down * down + R->w_buried * (size - 1 - deepest);
    if (R->w_unsorted != 0.0) {
        int run = size - 1;
        while (run > 0 && R->builds[pile[run - 1]][pile[run]]) run--;
        value += R->w_unsorted * run;
    }
    return value;
}

/* patience_score's score (no cells, no covers, every empty pile takes). */
static double score(const Rules *R, const Pos *p, const Reserve *rv) {
    int home = cards_home(R, p);
    if (home == R->total) return 0.0;
    int8_t need[64];
    need_of(R, p, need);
    double value = R->w_home * (R->total - home);
    int empty = 0;
    for (int t = R->T0; t < R->T0 + R->nt; t++) {
        if (p->len[t]) value += pile_value(R, p->c[t], p->len[t], need);
        else empty++;
    }
    value += -R->w_reserve * rv->olen - R->w_empty * empty;
    return value > 0.5 ? value : 0.5;
}

/* ------------------------------------------------------------------ safe moves home */

/* expander._safe_set: bit c for each card the foundations take safely (all copies of the
 * card below it home; an Ace while a foundation is empty). */
static uint64_t safe_of(const Rules *R, const Pos *p) {
    int tops[4][MAXP], nt[4] = {0, 0, 0, 0}, empty = 0;
    for (int f = R->F0; f < R->F0 + R->nf; f++) {
        if (p->len[f]) { int top = p->c[f][0]; tops[top >> 4 & 3][nt[top >> 4 & 3]++] = top & 15; }
        else empty = 1;
    }
    uint64_t safe = 0;
    for (int s = 0; s < 4; s++) {
        if (empty) safe |= 1ull << (s << 4 | 1);
        for (int i = 0; i < nt[s]; i++) {
            int rank = tops[s][i], count = 0;
            if (rank >= 13) continue;
            for (int j = 0; j < nt[s]; j++) count += tops[s][j] >= rank;
            if (count == R->decks) safe |= 1ull << (s << 4 | (rank + 1));
        }
    }
    return safe;
}

static inline int is_safe(uint64_t safe, int card) { return card < 64 && (safe >> card & 1); }

/* expander._settle: the safe moves, the tableau then the waste, until none; their codes
 * appended at codes[*nc]. 0, or -3 too many. */
static int settle(const Rules *R, Pos *p, Reserve *rv, uint16_t *codes, int *nc) {
    for (;;) {
        uint64_t safe = safe_of(R, p);
        int src = -1, card = 0;
        for (int t = R->T0; t < R->T0 + R->nt; t++)
            if (p->len[t] && is_safe(safe, p->c[t][p->len[t] - 1])) { src = t; card = p->c[t][p->len[t] - 1]; break; }
        if (src < 0 && rv->now && is_safe(safe, rv->order[rv->now - 1])) { src = R->W; card = rv->order[rv->now - 1]; }
        if (src < 0) return 0;
        int f = R->F0;
        for (; f < R->F0 + R->nf; f++)
            if (p->len[f] ? p->c[f][0] == card - 1 : (card & 15) == 1) break;
        if (f == R->F0 + R->nf || *nc >= MAXCODES) return -3;
        codes[(*nc)++] = PLAY(src, f, 1);
        p->c[f][0] = (uint8_t)card; p->len[f] = 1;
        if (src == R->W) {
            memmove(rv->order + rv->now - 1, rv->order + rv->now, rv->olen - rv->now);
            rv->olen--; rv->now--;
        } else take(p, src, 1);
    }
}

/* expander._play: turn ``card`` up (its turns' codes appended) and play it from the
 * waste: the reserve after. 0, or -3 (not in the reserve, or too many codes: room is
 * left for the play and the move that closes a bridge). */
static int play_card(Reserve *r, int card, uint16_t *codes, int *nc) {
    if (*nc + 5 > MAXCODES) return -3;
    if (!(r->now && r->order[r->now - 1] == card)) {
        int i = r->now;
        while (i < r->olen && r->order[i] != card) i++;
        if (i < r->olen) codes[(*nc)++] = (uint16_t)(TURNS | (i + 1 - r->now));
        else {                                  /* not in the stock: after a redeal */
            for (i = 0; i < r->olen && r->order[i] != card; i++) ;
            if (i == r->olen) return -3;
            if (r->now != r->olen) codes[(*nc)++] = (uint16_t)(TURNS | (r->olen - r->now));
            codes[(*nc)++] = REDEAL;
            codes[(*nc)++] = (uint16_t)(TURNS | (i + 1));
            r->redeals++;
        }
        r->now = i + 1;
    }
    memmove(r->order + r->now - 1, r->order + r->now, r->olen - r->now);
    r->olen--; r->now--;
    return 0;
}

static int moves_in(const uint16_t *codes, int nc) {     /* Python's moves: each turn counts */
    int n = 0;
    for (int i = 0; i < nc; i++) n += codes[i] & TURNS ? codes[i] & 0x7fff : 1;
    return n;
}

/* ------------------------------------------------------------------ dead ends */

/* reductions.DeadEnds.is_dead, the same relaxation on the same bit masks (bit t for card
 * type t = suit << 4 | rank: a suit is a 16-bit lane, "one rank up" a shift by one); see
 * reductions.py for why a position it calls dead has no win. */
#define RANKS_MASK 0x3FFE3FFE3FFE3FFEull
#define ACES_MASK 0x0002000200020002ull

static inline uint64_t homeable_of(uint64_t ready, uint64_t present) {
    return ready | (((present + (ready & present)) ^ present) & RANKS_MASK);
}

static inline uint64_t available_of(uint64_t exposed, uint64_t loose) {
    uint64_t available = exposed;
    for (;;) {
        uint64_t grown = available | (loose & (available >> 1));
        if (grown == available) return available;
        available = grown;
    }
}

static uint64_t ready_of(const Rules *R, const Pos *p) {
    int home[64];
    memset(home, 0, sizeof home);
    for (int f = R->F0; f < R->F0 + R->nf; f++)
        if (p->len[f]) {
            int top = p->c[f][0], base = top & 0x30;
            for (int rank = 1; rank <= (top & 15); rank++) home[base | rank]++;
        }
    uint64_t ready = ACES_MASK;
    for (int t = 0; t < 64; t++)
        if ((t & 15) > 1 && home[t - 1] > home[t]) ready |= 1ull << t;
    return ready;
}

static int is_dead(const Rules *R, const Pos *p, const Reserve *rv) {
    uint8_t col[MAXP][MAXH], run[MAXP][MAXH];
    uint64_t tops[MAXP][MAXH + 1], hosts[MAXP];
    int bound[MAXP], asked[MAXP], nt = R->nt;
    uint64_t loose = 0, tableau = 0;
    for (int i = 0; i < rv->olen; i++) loose |= 1ull << (rv->order[i] & 63);
    for (int k = 0; k < nt; k++) {
        int t = R->T0 + k, n = p->len[t];
        for (int i = 0; i < n; i++) col[k][i] = p->c[t][i] & 63;
        tops[k][n] = 0;
        if (n) run[k][n - 1] = 0;
        for (int i = n - 1; i >= 0; i--) {
            tops[k][i] = tops[k][i + 1] | 1ull << col[k][i];
            if (i < n - 1) run[k][i] = (col[k][i + 1] == col[k][i] - 1 && (col[k][i] & 15) > 1) ? run[k][i + 1] + 1 : 0;
        }
        tableau |= tops[k][0];
        bound[k] = n;
        asked[k] = 0;
    }
    uint64_t ready = ready_of(R, p), needed = loose | tableau;
    if (needed & ~homeable_of(ready, needed)) return 1;
    for (int k = 0; k < nt; k++) if (!bound[k]) return 0;     /* a pile may empty */
    uint64_t exposed = 0, homeable;
    for (int k = 0; k < nt; k++) exposed |= tops[k][bound[k] - 1];
    for (;;) {
        homeable = homeable_of(ready, loose | exposed);
        int most = 0;
        for (int k = 0; k < nt; k++) if (bound[k] > most) most = bound[k];
        if (!(needed & ~homeable) && most <= 1) return 0;
        uint64_t available = available_of(exposed, loose);
        int changed = 0;
        for (int k = 0; k < nt; k++) {
            int b = bound[k];
            if (asked[k] && !((homeable >> col[k][b - 1] & 1) || (available & hosts[k]))) continue;
            /* _lowest_leaver */
            int i = b - 1;
            uint64_t h = 0;
            while (i >= 0 && i + run[k][i] >= b - 1) {
                int c = col[k][i];
                if ((i == b - 1 && (homeable >> c & 1)) || (available >> (c + 1) & 1)) { b = i; h = 0; }
                else h |= 2ull << c;
                i--;
            }
            hosts[k] = h; asked[k] = 1;
            if (b < bound[k]) {
                if (!b) return 0;
                bound[k] = b;
                exposed |= tops[k][b - 1];
                changed = 1;
            }
        }
        if (!changed) break;
    }
    for (int k = 0; k < nt; k++) if (bound[k] > 1) return 1;
    return (needed & ~homeable) != 0;
}

/* ------------------------------------------------------------------ the successors */

/* One expansion: the parent (its piles changed in place for a child and put back), and
 * what its children's keys and scores are made from (moves_from, keys' parts). */
typedef struct {
    Pos p; Reserve rv;
    uint32_t node, depth;
    uint64_t safe;                    /* the parent's safe cards (its foundations) */
    int8_t need[64];
    double part[MAXP], core;          /* moves_from: each tableau pile's value, the rest */
    int empty;                        /* empty tableau piles */
    uint8_t head[KEYBUF]; int nhead;  /* the parent's foundations' part of the key */
    int order[MAXP];                  /* the parent's tableau piles as its key sorts them */
    int64_t won;
} Ex;

/* A child pushed with its score (search.py: a won one ends the expansion). */
static int push_scored(Search *S, Ex *x, const Pos *q, const Reserve *rq, const uint16_t *codes,
                       int nc, double value) {
    return push_child(S, x->node, codes, nc, x->depth + (uint32_t)moves_in(codes, nc), q, rq, value,
                      &x->won) ? -2 : 0;
}

/* scored's settle path: the child settled, then its key asked, then scored in full. */
static int settled_child(Search *S, Ex *x, const Pos *q0, const Reserve *r0, const uint16_t *codes0, int nc) {
    const Rules *R = &S->R;
    Pos q; Reserve r;
    uint16_t codes[MAXCODES];
    copy_pos(R, &q, q0); copy_reserve(&r, r0);
    memcpy(codes, codes0, nc * sizeof *codes);
    int bad = settle(R, &q, &r, codes, &nc);
    if (bad) return bad;
    uint8_t key[KEYBUF];
    int ok = admit(S, key, key_of(R, &q, key));
    if (ok <= 0) return ok < 0 ? -2 : 0;
    return push_scored(S, x, &q, &r, codes, nc, score(R, &q, &r));
}

/* expander._homed: a move or bridge home to position q with reserve rq. */
static int homed_child(Search *S, Ex *x, const Pos *q, const Reserve *rq, const uint16_t *codes, int nc) {
    const Rules *R = &S->R;
    uint64_t safe = safe_of(R, q);
    int asked = !(rq->now && is_safe(safe, rq->order[rq->now - 1]));
    for (int t = R->T0; asked && t < R->T0 + R->nt; t++)
        if (q->len[t] && is_safe(safe, q->c[t][q->len[t] - 1])) asked = 0;
    if (!asked) return settled_child(S, x, q, rq, codes, nc);
    uint8_t key[KEYBUF];
    int ok = admit(S, key, key_of(R, q, key));
    if (ok <= 0) return ok < 0 ? -2 : 0;
    return push_scored(S, x, q, rq, codes, nc, score(R, q, rq));
}

/* A tableau move or bridge: x->p holds the child's piles now, pile ``src`` left with its
 * run gone (its new top turned up), ``dst`` grown from ``dst_was`` cards;
 * rq the child's reserve, ``played`` reserve cards played. expander._asked, then either
 * the key asked first and the score made from the parent's (moves_from), or the settle
 * path. */
static int tableau_child(Search *S, Ex *x, int src, int dst, int dst_was, const Reserve *rq,
                         int played, const uint16_t *codes, int nc) {
    const Rules *R = &S->R;
    Pos *p = &x->p;
    int rest = p->len[src];
    /* a bridge leaves a new waste top (``played``); a move leaves the parent's, not safe */
    if ((rest && is_safe(x->safe, p->c[src][rest - 1])) ||
        (played && rq->now && is_safe(x->safe, rq->order[rq->now - 1])))
        return settled_child(S, x, p, rq, codes, nc);
    uint8_t key[KEYBUF];
    memcpy(key, x->head, x->nhead);
    int ok = admit(S, key, x->nhead + tableau_part_two(R, p, x->order, src, dst, key + x->nhead));
    if (ok <= 0) return ok < 0 ? -2 : 0;
    int empties = x->empty + (rest == 0) - (dst_was == 0);
    double value = x->core - x->part[src] - x->part[dst] + pile_value(R, p->c[src], rest, x->need)
                   + pile_value(R, p->c[dst], p->len[dst], x->need);
    value = value + R->w_reserve * played - R->w_empty * empties;
    return push_scored(S, x, p, rq, codes, nc, value > 0.5 ? value : 0.5);
}

static int cmp_pair(const void *a, const void *b) {
    const uint8_t *x = a, *y = b;
    return x[0] != y[0] ? x[0] - y[0] : x[1] - y[1];
}

static int run_length(const Rules *R, const Pos *p, int t) {
    int size = p->len[t];
    const uint8_t *pile = p->c[t];
    if (!size || pile[size - 1] & FACE_DOWN) return 0;
    int n = 1;
    while (n < size && R->fits[pile[size - n - 1]][pile[size - n]]) n++;
    return n;
}

/* The moves of moves.py's plans(every=False), then the home bridges and the bridges, as
 * InterchangeExpander._successors gives them. 0, -2 out of memory (or a Python error),
 * -3 beyond this core's bounds; x->won >= 0 once a child wins. */
static int successors(Search *S, Ex *x) {
    const Rules *R = &S->R;
    Pos *p = &x->p;
    int runs[MAXP];
    int first_empty_f = -1, first_empty_t = -1;
    for (int f = R->F0; f < R->F0 + R->nf; f++) if (!p->len[f]) { first_empty_f = f; break; }
    for (int t = R->T0; t < R->T0 + R->nt; t++) {
        runs[t] = run_length(R, p, t);
        if (!p->len[t] && first_empty_t < 0) first_empty_t = t;
    }
    uint16_t codes[MAXCODES];
    Pos q;
    int bad;
    /* to the foundations (moves.plans, in pile order; a card to the first empty one) */
    for (int t = R->T0; t < R->T0 + R->nt; t++) {
        if (!p->len[t]) continue;
        int card = p->c[t][p->len[t] - 1];
        if (card & FACE_DOWN) continue;
        for (int f = R->F0; f < R->F0 + R->nf; f++) {
            if ((card & 15) == 1 ? f != first_empty_f : !(p->len[f] && p->c[f][0] == card - 1)) continue;
            copy_pos(R, &q, p);
            q.c[f][0] = (uint8_t)card; q.len[f] = 1;
            take(&q, t, 1);
            codes[0] = PLAY(t, f, 1);
            if ((bad = homed_child(S, x, &q, &x->rv, codes, 1)) || x->won >= 0) return bad;
        }
    }
    /* on the tableau, by destination then count */
    uint8_t takes[128][MAXP], ntakes[128];
    memset(ntakes, 0, sizeof ntakes);
    for (int d = R->T0; d < R->T0 + R->nt; d++) {
        if (!p->len[d]) continue;
        int top = p->c[d][p->len[d] - 1];
        for (int i = 0; i < R->nfits[top]; i++) { int c = R->fits_on[top][i]; takes[c][ntakes[c]++] = (uint8_t)d; }
    }
    for (int src = R->T0; src < R->T0 + R->nt; src++) {
        int size = p->len[src], run = runs[src];
        if (!size) continue;
        uint8_t found[MAXP * MAXH][2];
        int nf = 0;
        for (int n = 1; n <= run; n++) {
            int card = p->c[src][size - n];
            for (int i = 0; i < ntakes[card]; i++)
                if (takes[card][i] != src) { found[nf][0] = takes[card][i]; found[nf][1] = (uint8_t)n; nf++; }
        }
        if (first_empty_t >= 0) {
            int most = run < size - 1 ? run : size - 1;
            for (int n = 1; n <= most; n++)
                if (R->empty_takes[p->c[src][size - n]]) { found[nf][0] = (uint8_t)first_empty_t; found[nf][1] = (uint8_t)n; nf++; }
        }
        if (nf > 1) qsort(found, nf, 2, cmp_pair);
        for (int i = 0; i < nf; i++) {
            int dst = found[i][0], n = found[i][1], was = p->len[dst];
            if (was + n > MAXH) return -3;
            memcpy(p->c[dst] + was, p->c[src] + size - n, n);
            p->len[dst] += (uint8_t)n;
            int turned = take(p, src, n);
            codes[0] = PLAY(src, dst, n);
            bad = tableau_child(S, x, src, dst, was, &x->rv, 0, codes, 1);
            untake(p, src, n, turned);
            p->len[dst] = (uint8_t)was;
            if (bad || x->won >= 0) return bad;
        }
    }
    if (!x->rv.olen) return 0;
    uint8_t in_reserve[64];
    memset(in_reserve, 0, sizeof in_reserve);
    for (int i = 0; i < x->rv.olen; i++) in_reserve[x->rv.order[i] & 63] = 1;
    /* the home bridges (expander._home_bridges) */
    {
        uint8_t on_top[64][MAXP], non_top[64], seen[64];
        memset(non_top, 0, sizeof non_top); memset(seen, 0, sizeof seen);
        for (int t = R->T0; t < R->T0 + R->nt; t++)
            if (p->len[t] && !(p->c[t][p->len[t] - 1] & FACE_DOWN)) {
                int c = p->c[t][p->len[t] - 1];
                on_top[c][non_top[c]++] = (uint8_t)t;
            }
        for (int f = R->F0; f < R->F0 + R->nf; f++) {
            int top = p->len[f] ? p->c[f][0] : 0;
            if (seen[top] || (top & 15) == 13) continue;
            seen[top] = 1;
            int firsts[4], nfirst = 0;
            if (!top) { for (int s = 0; s < 4; s++) if (in_reserve[s << 4 | 1]) firsts[nfirst++] = s << 4 | 1; }
            else if (in_reserve[top + 1]) firsts[nfirst++] = top + 1;
            for (int k = 0; k < nfirst; k++) {
                Reserve rc;
                copy_reserve(&rc, &x->rv);
                int nc = 0, last = firsts[k];
                for (;;) {
                    if ((bad = play_card(&rc, last, codes, &nc))) return bad;
                    codes[nc++] = PLAY(R->W, f, 1);
                    if ((last & 15) == 13) {
                        copy_pos(R, &q, p);
                        q.c[f][0] = (uint8_t)last; q.len[f] = 1;
                        if ((bad = homed_child(S, x, &q, &rc, codes, nc)) || x->won >= 0) return bad;
                        break;
                    }
                    for (int i = 0; i < non_top[last + 1]; i++) {
                        int a = on_top[last + 1][i];
                        copy_pos(R, &q, p);
                        q.c[f][0] = (uint8_t)(last + 1); q.len[f] = 1;
                        take(&q, a, 1);
                        codes[nc] = PLAY(a, f, 1);
                        if ((bad = homed_child(S, x, &q, &rc, codes, nc + 1)) || x->won >= 0) return bad;
                    }
                    if (!in_reserve[last + 1]) break;
                    last++;
                }
            }
        }
    }
    /* the bridges (expander._bridges) */
    uint8_t units[64][MAXP][2], nunits[64];
    memset(nunits, 0, sizeof nunits);
    for (int a = R->T0; a < R->T0 + R->nt; a++)
        for (int n = 1; n <= runs[a]; n++) {
            int c = p->c[a][p->len[a] - n] & 63;
            units[c][nunits[c]][0] = (uint8_t)a; units[c][nunits[c]][1] = (uint8_t)n; nunits[c]++;
        }
    for (int b = R->T0; b < R->T0 + R->nt; b++) {
        int size = p->len[b], starts[64], nstart = 0;
        if (size) {
            int top = p->c[b][size - 1];
            for (int i = 0; i < R->nfits[top]; i++)
                if (R->fits_on[top][i] < 64 && in_reserve[R->fits_on[top][i]]) starts[nstart++] = R->fits_on[top][i];
        } else if (b == first_empty_t) {
            for (int c = 0; c < 64; c++) if (in_reserve[c]) starts[nstart++] = c;
        } else continue;
        for (int k = 0; k < nstart; k++) {
            Reserve rc;
            int copied = 0, nc = 0, played = 0, ncards = 0, last = starts[k];
            uint8_t cards[16];
            for (;;) {
                if (ncards >= 16) return -3;
                cards[ncards++] = (uint8_t)last;
                int head = (last & 15) > 1 ? last - 1 : -1;
                for (int u = 0; head >= 0 && u < nunits[head]; u++) {
                    int a = units[head][u][0], n = units[head][u][1];
                    if (a == b) continue;
                    if (!copied) { copy_reserve(&rc, &x->rv); copied = 1; }
                    while (played < ncards) {
                        if ((bad = play_card(&rc, cards[played++], codes, &nc))) return bad;
                        codes[nc++] = PLAY(R->W, b, 1);
                    }
                    int sa = p->len[a];
                    if (size + ncards + n > MAXH) return -3;
                    memcpy(p->c[b] + size, cards, ncards);
                    memcpy(p->c[b] + size + ncards, p->c[a] + sa - n, n);
                    p->len[b] = (uint8_t)(size + ncards + n);
                    int turned = take(p, a, n);
                    codes[nc] = PLAY(a, b, n);
                    bad = tableau_child(S, x, a, b, size, &rc, ncards, codes, nc + 1);
                    untake(p, a, n, turned);
                    p->len[b] = (uint8_t)size;
                    if (bad || x->won >= 0) return bad;
                }
                if (head < 0 || !in_reserve[head]) break;
                last = head;
            }
        }
    }
    return 0;
}

static int is_dead(const Rules *R, const Pos *p, const Reserve *rv);

/* reductions.DeadEnds.is_dead, here or (S->dead: a Python function of the encoded
 * position) in Python. 1, 0, or -2 a Python error. */
static int dead_end(Search *S, Ex *x) {
    if (S->dead == NULL) return is_dead(&S->R, &x->p, &x->rv);
    uint8_t buf[4 * MAXR + 64];
    int n = encode(&S->R, &x->p, &x->rv, buf);
    PyObject *r = PyObject_CallFunction(S->dead, "y#", buf, (Py_ssize_t)n);
    if (!r) return -2;
    int dead = PyObject_IsTrue(r);
    Py_DECREF(r);
    return dead < 0 ? -2 : dead;
}

/* InterchangeExpander.scored on a live position: its children pushed. 0, or as successors. */
static int children(Search *S, Ex *x, uint32_t node, uint32_t depth) {
    const Rules *R = &S->R;
    x->node = node; x->depth = depth; x->won = -1;
    sort_piles(R, &x->p, x->order);
    x->safe = safe_of(R, &x->p);
    need_of(R, &x->p, x->need);
    x->core = R->w_home * (R->total - cards_home(R, &x->p)) - R->w_reserve * x->rv.olen;
    x->empty = 0;
    for (int t = R->T0; t < R->T0 + R->nt; t++) {
        x->part[t] = x->p.len[t] ? pile_value(R, x->p.c[t], x->p.len[t], x->need) : 0.0;
        x->core += x->part[t];
        x->empty += !x->p.len[t];
    }
    return successors(S, x);
}

/* _Search.expand_next with InterchangeExpander.scored: the won node, -1 if none (-5 the
 * position was skipped: another search of the pool expanded it), -2 out of memory or a
 * Python error, -3 beyond this core's bounds. */
static int64_t expand_next(Search *S, uint32_t *depth_out) {
    const Rules *R = &S->R;
    Entry e;
    if (pop(S, &e)) return -2;
    Node node = S->nodes[e.node];
    Ex x;
    decode(R, S->slots + (size_t)node.slot * R->slot, &x.p, &x.rv);
    if (release_slot(S, e.node)) return -2;
    x.nhead = head_of(R, &x.p, x.head);
    x.won = -1;
    if (S->expanded) {                                /* the pooled proof */
        uint8_t key[KEYBUF];
        memcpy(key, x.head, x.nhead);
        int n = x.nhead + tableau_part(R, &x.p, key + x.nhead);
        uint64_t h = hash_bytes(key, n);
        if (keyset_has(S->expanded, key, n, h) && S->progress >= S->pool_after) { S->skipped++; return -5; }
        if (keyset_add(S->expanded, key, n, h) < 0) return -2;
    }
    S->progress++;
    *depth_out = node.depth;
    int dead = dead_end(S, &x);                       /* a dead end has no successors */
    if (dead < 0) return -2;
    if (!dead) {
        int bad = children(S, &x, e.node, node.depth);
        if (bad) return bad;
        if (x.won >= 0) return x.won;
    }
    if (S->waiting > S->frontier_size) {             /* _Search.trim */
        if (keep(S, S->frontier_size / 2)) return -2;
        S->complete = 0;
    }
    return -1;
}

/* ------------------------------------------------------------------ Python's side */

/* KeyPool: a set of bytes keys (add, in, len), kept as a KeySet, for a pooled proof:
 * native.py puts two in place of _Closure's two Python sets, so that the searches add
 * and look up their keys without making a bytes object of each; a Python _Search of the
 * same portfolio uses them through these methods. */
typedef struct { PyObject_HEAD KeySet keys; } KeyPool;

static void KeyPool_dealloc(KeyPool *P) {
    keyset_free(&P->keys);
    Py_TYPE(P)->tp_free((PyObject *)P);
}

/* The key's bytes, zero past their end (hash_bytes reads them); its length, or -1. */
static int key_arg(PyObject *key, uint8_t *buf) {
    if (!PyBytes_Check(key)) { PyErr_SetString(PyExc_TypeError, "search_core: a key is bytes"); return -1; }
    Py_ssize_t n = PyBytes_GET_SIZE(key);
    if (n > 255) { PyErr_SetString(PyExc_ValueError, "search_core: a key of at most 255 bytes"); return -1; }
    memcpy(buf, PyBytes_AS_STRING(key), n);
    memset(buf + n, 0, 8);
    return (int)n;
}

static PyObject *KeyPool_add(KeyPool *P, PyObject *key) {
    uint8_t buf[KEYBUF];
    int n = key_arg(key, buf);
    if (n < 0) return NULL;
    if (keyset_add(&P->keys, buf, n, hash_bytes(buf, n)) < 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static int KeyPool_contains(KeyPool *P, PyObject *key) {
    uint8_t buf[KEYBUF];
    int n = key_arg(key, buf);
    if (n < 0) return -1;
    return keyset_has(&P->keys, buf, n, hash_bytes(buf, n));
}

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
    .tp_name = "solwidget.games.interchange.search_core.KeyPool",
    .tp_basicsize = sizeof(KeyPool),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A set of bytes keys (add, in, len) for a pooled proof.",
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)KeyPool_dealloc,
    .tp_methods = KeyPool_methods,
    .tp_as_sequence = &KeyPool_sequence,
};

/* Gives back every buffer of the search (to the pool) but the nodes and their moves. */
static void free_frontier_and_tables(Search *S) {
    keyset_free(&S->table); keyset_free(&S->old_table);
    clear_frontier(S);
    GIVE(S->heap, S->cheap, sizeof(Entry));
    GIVE(S->taken, S->ctaken, 1);
    GIVE(S->slots, S->cslots, 1); S->nslots = 0;
    GIVE(S->free_slots, S->cfree, sizeof(uint32_t)); S->nfree = 0;
}

static void free_all(Search *S) {
    free_frontier_and_tables(S);
    GIVE(S->nodes, S->cnodes, sizeof(Node)); S->nnodes = 0;
    GIVE(S->moves.data, S->moves.cap, 1); S->moves.size = 0;
}

static void unpool(Search *S) {
    S->expanded = S->generated_keys = NULL;
    S->pooled_all = 0;
    Py_CLEAR(S->pooled[0]); Py_CLEAR(S->pooled[1]);
}

static void drop_references(Search *S) {
    unpool(S);
    Py_CLEAR(S->dead); Py_CLEAR(S->trace);
}

static void Search_dealloc(Search *S) {
    free_all(S);
    drop_references(S);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static int read_bytes(PyObject *obj, const char *what, Py_ssize_t size, const uint8_t **out) {
    if (!PyBytes_Check(obj) || PyBytes_GET_SIZE(obj) != size) {
        PyErr_Format(PyExc_ValueError, "search_core: %s must be %zd bytes", what, size);
        return -1;
    }
    *out = (const uint8_t *)PyBytes_AS_STRING(obj);
    return 0;
}

/* Search(foundations, tableau, fits_on, empty_takes, builds, decks, total, weights,
 *        depth_weight, explore, table_half, frontier_size, dead): the piles are the
 *        foundations, then the tableau, then the stock and the waste; fits_on a tuple of
 *        128 bytes objects (the cards that fit on each card, in Python's set order);
 *        empty_takes 128 bytes; builds 128x128 bytes (the build's fits, read by the
 *        unsorted weight); weights the 8 of heuristics.py (home, blockers, urgent, buried,
 *        down, empty, reserve, unsorted); dead a Python function of an encoded position,
 *        or None (the C test). */
static int Search_init(Search *S, PyObject *args, PyObject *kw) {
    PyObject *fits_on, *empty_takes, *builds, *dead;
    int nf, nt, decks, total;
    double w[8];
    double depth_weight, explore;
    Py_ssize_t table_half, frontier_size;
    if (!PyArg_ParseTuple(args, "iiO!SSii(dddddddd)ddnnO", &nf, &nt, &PyTuple_Type, &fits_on, &empty_takes,
                          &builds, &decks, &total, &w[0], &w[1], &w[2], &w[3], &w[4], &w[5], &w[6], &w[7],
                          &depth_weight, &explore, &table_half, &frontier_size, &dead))
        return -1;
    free_all(S);                                  /* a search set up again starts afresh */
    drop_references(S);
    memset((char *)S + sizeof(PyObject), 0, sizeof(Search) - sizeof(PyObject));
    Rules *R = &S->R;
    if (nf < 1 || nt < 1 || nf + nt + 2 > MAXP) {
        PyErr_SetString(PyExc_ValueError, "search_core: 1 to 30 foundations and tableau piles");
        return -1;
    }
    if (decks < 1 || total < 1 || total > MAXR || total + nf + nt + 1 > 255 || nf > 4 * decks) {
        PyErr_SetString(PyExc_ValueError, "search_core: a key must fit in 255 bytes");
        return -1;
    }
    if (PyTuple_GET_SIZE(fits_on) != 128) {
        PyErr_SetString(PyExc_ValueError, "search_core: fits_on must hold 128 bytes objects");
        return -1;
    }
    const uint8_t *et, *bu;
    if (read_bytes(empty_takes, "empty_takes", 128, &et) || read_bytes(builds, "builds", 128 * 128, &bu)) return -1;
    for (int under = 0; under < 128; under++) {
        PyObject *item = PyTuple_GET_ITEM(fits_on, under);
        if (!PyBytes_Check(item) || PyBytes_GET_SIZE(item) > 63) {
            PyErr_SetString(PyExc_ValueError, "search_core: fits_on's items are bytes of fewer than 64 cards");
            return -1;
        }
        const uint8_t *cards = (const uint8_t *)PyBytes_AS_STRING(item);
        for (Py_ssize_t i = 0; i < PyBytes_GET_SIZE(item); i++) {
            if (cards[i] >= 64 || (cards[i] & 15) < 1 || (cards[i] & 15) > 13) {
                PyErr_SetString(PyExc_ValueError, "search_core: fits_on holds face-up cards");
                return -1;
            }
            R->fits_on[under][R->nfits[under]++] = cards[i];
            R->fits[under][cards[i]] = 1;
        }
    }
    memcpy(R->empty_takes, et, 128);
    memcpy(R->builds, bu, sizeof R->builds);
    R->nf = nf; R->nt = nt; R->F0 = 0; R->T0 = nf; R->S = nf + nt; R->W = nf + nt + 1; R->np = nf + nt + 2;
    R->decks = decks; R->total = total;
    R->w_home = w[0]; R->w_block = w[1]; R->w_urgent = w[2]; R->w_buried = w[3];
    R->w_down = w[4]; R->w_empty = w[5]; R->w_reserve = w[6]; R->w_unsorted = w[7];
    R->slot = nf + nt + total + 6;
    S->depth_weight = depth_weight;
    S->explore = explore;
    S->table_half = table_half > 0 ? (size_t)table_half : 0;       /* 0: evict at every key */
    S->frontier_size = frontier_size > 0 ? (size_t)frontier_size : 0;   /* 0: trim at every expansion */
    S->complete = 1;
    S->best_node = -1;
    if (dead != Py_None) { Py_INCREF(dead); S->dead = dead; }
    mt_seed_zero(&S->rng);
    return 0;
}

static int not_ready(const Search *S) {
    if (S->R.np) return 0;
    PyErr_SetString(PyExc_RuntimeError, "search_core: the search was not set up (Search(...))");
    return 1;
}

static int read_position(const Search *S, PyObject *obj, Pos *p, Reserve *rv) {
    const Rules *R = &S->R;
    if (!PyBytes_Check(obj)) { PyErr_SetString(PyExc_TypeError, "search_core: a position is bytes"); return -1; }
    const uint8_t *b = (const uint8_t *)PyBytes_AS_STRING(obj);
    Py_ssize_t n = PyBytes_GET_SIZE(obj), at = R->nf;
    if (n > R->slot || n < at) goto bad;
    for (int f = 0; f < R->nf; f++)
        if (b[f] >= 64 || (b[f] && ((b[f] & 15) < 1 || (b[f] & 15) > 13))) goto bad;
    for (int t = 0; t < R->nt; t++) {                /* check before decode reads it */
        if (at >= n) goto bad;
        int size = b[at++];
        if (size > MAXH || at + size > n) goto bad;
        for (int j = 0; j < size; j++)
            if (b[at + j] >= 128 || ((b[at + j] & 15) < 1 || (b[at + j] & 15) > 13)) goto bad;
        at += size;
    }
    if (at + 2 > n) goto bad;
    int olen = b[at], now = b[at + 1];
    at += 2;
    if (now > olen || at + olen + 4 != n) goto bad;
    for (int j = 0; j < olen; j++)
        if (b[at + j] >= 64 || (b[at + j] & 15) < 1 || (b[at + j] & 15) > 13) goto bad;
    int cards = olen + (int)(at - R->nf - R->nt - 2);  /* the game's cards, no more: */
    for (int f = 0; f < R->nf; f++) cards += b[f] & 15;    /* so the key fits in 255 bytes */
    if (cards != R->total) goto bad;
    decode(R, b, p, rv);
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "search_core: a malformed position");
    return -1;
}

static int read_codes(PyObject *obj, uint16_t *m, int *nm) {
    if (!PyBytes_Check(obj) || PyBytes_GET_SIZE(obj) % 2 || PyBytes_GET_SIZE(obj) > 2 * MAXCODES) {
        PyErr_SetString(PyExc_ValueError, "search_core: moves are bytes, 2 a move code");
        return -1;
    }
    *nm = (int)(PyBytes_GET_SIZE(obj) / 2);
    memcpy(m, PyBytes_AS_STRING(obj), PyBytes_GET_SIZE(obj));
    return 0;
}

/* seed(position, moves, depth): the start, reached by these moves (search.py's seed). */
static PyObject *Search_seed(Search *S, PyObject *args) {
    PyObject *position, *moves;
    unsigned int depth;
    if (!PyArg_ParseTuple(args, "SSI", &position, &moves, &depth) || not_ready(S)) return NULL;
    Pos p; Reserve rv;
    uint16_t m[MAXCODES];
    int nm;
    if (read_position(S, position, &p, &rv) || read_codes(moves, m, &nm)) return NULL;
    uint8_t key[KEYBUF];
    int n = key_of(&S->R, &p, key);
    if (keyset_add(&S->table, key, n, hash_bytes(key, n)) < 0) return PyErr_NoMemory();
    int64_t node = new_node(S, NONE32, m, nm, depth);
    if (node < 0 || store(S, (uint32_t)node, &p, &rv)) return PyErr_NoMemory();
    S->order--;
    if (push(S, (Entry){score(&S->R, &p, &rv) + S->depth_weight * depth, S->order, (uint32_t)node}))
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *failed(int64_t code) {
    if (PyErr_Occurred()) return NULL;
    if (code == -3) {
        PyErr_SetString(PyExc_RuntimeError, "search_core: a position beyond this core's bounds");
        return NULL;
    }
    return PyErr_NoMemory();
}

/* Does ``big`` hold every key of ``keys``? */
static int holds_all(const KeySet *big, const KeySet *keys) {
    for (size_t j = 0; j < keys->cap; j++) {
        if (!keys->hash[j]) continue;
        const uint8_t *k = keys->arena.data + keys->at[j];
        if (!keyset_has(big, k + 1, k[0], keys->hash[j])) return 0;
    }
    return 1;
}

/* pool(expanded, generated): take part in a pooled proof (two KeyPools), or leave it
 * (None, None). */
static PyObject *Search_pool(Search *S, PyObject *args) {
    PyObject *expanded, *generated;
    if (!PyArg_ParseTuple(args, "OO", &expanded, &generated)) return NULL;
    if ((expanded == Py_None) != (generated == Py_None) ||
        (expanded != Py_None && (!PyObject_TypeCheck(expanded, &KeyPoolType) ||
                                 !PyObject_TypeCheck(generated, &KeyPoolType)))) {
        PyErr_SetString(PyExc_TypeError, "search_core: pool(expanded, generated) takes two KeyPools or two Nones");
        return NULL;
    }
    unpool(S);
    if (expanded != Py_None) {
        Py_INCREF(expanded); S->pooled[0] = expanded; S->expanded = &((KeyPool *)expanded)->keys;
        Py_INCREF(generated); S->pooled[1] = generated; S->generated_keys = &((KeyPool *)generated)->keys;
        S->pooled_all = holds_all(S->generated_keys, &S->table) && holds_all(S->generated_keys, &S->old_table);
    }
    Py_RETURN_NONE;
}

/* run(n, expanded, pool_after) -> (popped, won node or None, depth of the last expanded,
 * expanded, skipped): up to n positions popped, fewer if a win is found or the frontier
 * runs empty; ``expanded``: the portfolio's expansions so far (search.py's POOL_AFTER). */
static PyObject *Search_run(Search *S, PyObject *args) {
    Py_ssize_t n, done = 0;
    long long progress, pool_after;
    if (!PyArg_ParseTuple(args, "nLL", &n, &progress, &pool_after) || not_ready(S)) return NULL;
    S->progress = progress;
    S->pool_after = pool_after;
    long long skipped = S->skipped;
    int64_t won = -1;
    uint32_t depth = 0;
    while (done < n && S->waiting && won < 0) {
        won = expand_next(S, &depth);
        done++;
        if (won == -5) won = -1;
        if (won < -1) return failed(won);
    }
    PyObject *node = won >= 0 ? PyLong_FromLongLong(won) : (Py_INCREF(Py_None), Py_None);
    return Py_BuildValue("nNILL", done, node, depth, S->progress - progress, S->skipped - skipped);
}

/* line(node) -> bytes: the move codes from the start to the node, 2 bytes each. */
static PyObject *Search_line(Search *S, PyObject *args) {
    long long node;
    if (!PyArg_ParseTuple(args, "L", &node)) return NULL;
    if (node < 0 || (size_t)node >= S->nnodes) { PyErr_SetString(PyExc_IndexError, "search_core: no such node"); return NULL; }
    size_t total = 0;
    for (uint32_t i = (uint32_t)node; i != NONE32; i = S->nodes[i].parent) total += 2u * S->nodes[i].nmoves;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)total);
    if (!out) return NULL;
    uint8_t *b = (uint8_t *)PyBytes_AS_STRING(out) + total;
    for (uint32_t i = (uint32_t)node; i != NONE32; i = S->nodes[i].parent) {
        size_t size = 2u * S->nodes[i].nmoves;
        b -= size;
        memcpy(b, S->moves.data + S->nodes[i].moves, size);
    }
    return out;
}

/* successors(position) -> ([(moves, child position, score)], [keys asked]): the position
 * expanded by a fresh search of the same rules (each key admitted once, as a new table
 * would), to compare with InterchangeExpander.scored. */
static PyObject *Search_successors(Search *S, PyObject *args) {
    PyObject *position;
    if (!PyArg_ParseTuple(args, "S", &position)) return NULL;
    if (not_ready(S)) return NULL;
    Search probe;                            /* a scratch search on the same rules */
    memset(&probe, 0, sizeof probe);
    probe.R = S->R;
    probe.best_node = -1;
    probe.dead = S->dead;                    /* borrowed */
    probe.table_half = probe.frontier_size = (size_t)-1;     /* nothing evicted or trimmed */
    /* no depth weight and no exploring: a child's priority is its score */
    PyObject *result = NULL, *trace = PyList_New(0);
    if (!trace) return NULL;
    probe.trace = trace;
    Pos p; Reserve rv;
    if (read_position(&probe, position, &p, &rv)) goto done;
    int64_t root = new_node(&probe, NONE32, NULL, 0, 0);
    if (root < 0 || store(&probe, (uint32_t)root, &p, &rv)) { PyErr_NoMemory(); goto done; }
    if (push(&probe, (Entry){0.0, -1, (uint32_t)root})) { PyErr_NoMemory(); goto done; }
    uint32_t depth;
    int64_t won = expand_next(&probe, &depth);
    if (won < -1) { failed(won); goto done; }
    PyObject *children = PyList_New(0);
    for (size_t i = 1; children && i < probe.nnodes; i++) {
        Node *c = &probe.nodes[i];
        PyObject *child;
        if (c->slot == NONE32) child = (Py_INCREF(Py_None), Py_None);    /* won: every card home */
        else {
            uint8_t buf[4 * MAXR + 64];
            Pos q; Reserve rq;
            decode(&probe.R, probe.slots + (size_t)c->slot * probe.R.slot, &q, &rq);
            child = PyBytes_FromStringAndSize((char *)buf, encode(&probe.R, &q, &rq, buf));
        }
        double value = 0.0;                  /* a won child's; the others are in the heap */
        for (size_t h = 0; h < probe.nheap; h++)
            if (probe.heap[h].node == i) value = probe.heap[h].prio;
        PyObject *item = Py_BuildValue("y#Nd", probe.moves.data + c->moves, (Py_ssize_t)2 * c->nmoves, child, value);
        if (!item || PyList_Append(children, item)) Py_CLEAR(children);
        Py_XDECREF(item);
    }
    if (children) result = Py_BuildValue("NO", children, trace);
done:
    free_all(&probe);
    Py_DECREF(trace);
    return result;
}

/* key(position) -> bytes: the key the search's table holds (keys.py's _cycle_key). */
static PyObject *Search_key(Search *S, PyObject *args) {
    PyObject *position;
    if (!PyArg_ParseTuple(args, "S", &position) || not_ready(S)) return NULL;
    Pos p; Reserve rv;
    if (read_position(S, position, &p, &rv)) return NULL;
    uint8_t key[KEYBUF];
    return PyBytes_FromStringAndSize((char *)key, key_of(&S->R, &p, key));
}

/* dead(position) -> bool: the C dead-end test (reductions.DeadEnds.is_dead). */
static PyObject *Search_dead(Search *S, PyObject *args) {
    PyObject *position;
    if (!PyArg_ParseTuple(args, "S", &position) || not_ready(S)) return NULL;
    Pos p; Reserve rv;
    if (read_position(S, position, &p, &rv)) return NULL;
    return PyBool_FromLong(is_dead(&S->R, &p, &rv));
}

/* release(): give back the frontier's, tables' and positions' memory (the nodes stay:
 * the lines to them are still asked for). */
static PyObject *Search_release(Search *S, PyObject *unused) {
    free_frontier_and_tables(S);
    for (size_t i = 0; i < S->nnodes; i++) S->nodes[i].slot = NONE32;
    unpool(S);
    Py_RETURN_NONE;
}

static PyObject *Search_get_waiting(Search *S, void *c) { return PyLong_FromSize_t(S->waiting); }
static PyObject *Search_get_generated(Search *S, void *c) { return PyLong_FromLongLong(S->generated); }
static PyObject *Search_get_complete(Search *S, void *c) { return PyBool_FromLong(S->complete); }
static PyObject *Search_get_skipped(Search *S, void *c) { return PyLong_FromLongLong(S->skipped); }
static PyObject *Search_get_best_score(Search *S, void *c) {
    if (S->best_node < 0) Py_RETURN_NONE;
    return PyFloat_FromDouble(S->best_score);
}
static PyObject *Search_get_best_node(Search *S, void *c) {
    if (S->best_node < 0) Py_RETURN_NONE;
    return PyLong_FromLongLong(S->best_node);
}

static PyMethodDef Search_methods[] = {
    {"seed", (PyCFunction)Search_seed, METH_VARARGS, "seed(position, moves, depth): the start position."},
    {"pool", (PyCFunction)Search_pool, METH_VARARGS, "pool(expanded, generated): a pooled proof's sets, or None, None."},
    {"run", (PyCFunction)Search_run, METH_VARARGS, "run(n, expanded, pool_after) -> (popped, won node or None, last depth, expanded, skipped)."},
    {"line", (PyCFunction)Search_line, METH_VARARGS, "line(node) -> the move codes to it, 2 bytes each."},
    {"successors", (PyCFunction)Search_successors, METH_VARARGS, "successors(position) -> ([(moves, child, score)], [keys asked])."},
    {"key", (PyCFunction)Search_key, METH_VARARGS, "key(position) -> the table's key."},
    {"dead", (PyCFunction)Search_dead, METH_VARARGS, "dead(position) -> the C dead-end test's verdict."},
    {"release", (PyCFunction)Search_release, METH_NOARGS, "release(): free the frontier and tables."},
    {NULL}
};

static PyGetSetDef Search_getset[] = {
    {"waiting", (getter)Search_get_waiting, NULL, "positions in the frontier", NULL},
    {"generated", (getter)Search_get_generated, NULL, "successors asked about", NULL},
    {"complete", (getter)Search_get_complete, NULL, "False once the frontier was trimmed", NULL},
    {"skipped", (getter)Search_get_skipped, NULL, "positions left to the search of the pool that expanded them", NULL},
    {"best_score", (getter)Search_get_best_score, NULL, "the best score generated, or None", NULL},
    {"best_node", (getter)Search_get_best_node, NULL, "the node of the best score, or None", NULL},
    {NULL}
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "solwidget.games.interchange.search_core.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One best-first search of the Interchange family (see the module's source).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

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

static PyMethodDef core_methods[] = {
    {"random", core_random, METH_VARARGS, "random(n): Random(0)'s random() and randrange(k), k = 1..n."},
    {NULL}
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "search_core",
    "The Interchange family's search, compiled (see native.py).", -1, core_methods
};

PyMODINIT_FUNC PyInit_search_core(void) {
    if (PyType_Ready(&SearchType) < 0 || PyType_Ready(&KeyPoolType) < 0) return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "MAX_PILES", MAXP) < 0 || PyModule_AddIntConstant(m, "MAX_CARDS", MAXR) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType); Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&KeyPoolType);
    if (PyModule_AddObject(m, "KeyPool", (PyObject *)&KeyPoolType) < 0) {
        Py_DECREF(&KeyPoolType); Py_DECREF(m);
        return NULL;
    }
    return m;
}
