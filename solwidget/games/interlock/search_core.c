/* Interlock's search, compiled: solver/search.py's best-first search with InterlockExpander's
 * successors (expander.py, moves.py, bridges.py, solver/stock.py), the patience score
 * (solver/heuristics.py) and _cycle_key with keys.py's sorting of uncovered back piles, in C.
 *
 * It is a second writing of what those Python files say, not a source of rules: every
 * table it plays by (the layout: which piles cover which and which are gone once empty;
 * which card goes on which, in the order of the game's fits_on sets; which cards head a
 * group to an empty back pile; the suits that make a card safe; the score's weights) is
 * handed to it by native.py, which reads them from the game, and it expands the same
 * positions in the same order as the Python search: the same successors, keys and scores,
 * the same frontier (a heap, and with ``explore`` the same random kinds drawn from the same
 * Mersenne Twister as Python's random.Random(0)), the same transposition tables, evictions
 * and trims. tests/test_native_interlock.py compares the two successor by successor and
 * search by search; the solver replays every win through State.play.
 *
 * What it takes from the rules without a table (native.py runs it only where they hold,
 * bridges.applies and expander.fast_path): one deck, foundations up in suit from the Ace,
 * one card turned at a time with unlimited redeals, runs only, no free cells, no face-down
 * tableau cards.
 *
 * The dead-end test (deadends.py's DeadEnds.is_dead) is written again here too, asked of
 * every position expanded as PatienceExpander.expand asks it, with DeadEnds' own tables
 * and constants (native.py calls a test of another kind back in Python instead).
 *
 * A position is kept as bytes: for each pile in the game's order, a foundation as its top
 * card (0 when empty), any other pile as its length and its cards (the stock's face down,
 * as the engine keeps them), then the redeals so far (4 bytes, little-endian: State.extra).
 * A key is _cycle_key's bytes exactly.
 *
 * The bridges start, on an empty back pile, from the reserve's Kings in the order Python
 * iterates ``set(cycle)``: ``set_order`` below replays CPython's set of small ints (native.py
 * checks it against the running Python and keeps the Python search where it differs).
 *
 * Scores are sums of counts times weights. native.py uses this core only when every weight
 * and the depth weight are multiples of 1/1024 below 2^20: then every partial sum is exact
 * in a double, so any order of adding gives the Python score to the last bit. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 40          /* piles */
#define MAXH 56          /* cards in one pile: one deck holds 52 */
#define MAXMOVES 1024    /* moves of one successor, turn runs counted once */
#define NONE32 0xFFFFFFFFu
#define KEYBUF 256       /* a key, and the zeros its hash reads past its end */
#define KING 13

/* ------------------------------------------------------------------ the rules' tables */

/* What the dead-end test plays by (deadends.py's DeadEnds): each card's pair (the card and
 * the two cards it may be put on, 0 0 for a King), the back piles, the virtual cards of
 * nested splits, TWIN and the constants that choose the splits tried. */
typedef struct {
    int on;
    uint8_t pair[64][3];
    uint8_t is_back[MAXP];
    uint8_t virtuals[3];
    int twin, killers, killer_tries, scout, plain_first, first_depth;
} DeadRules;

typedef struct { uint8_t guest, twin, host, other, virtual_; } Split;

/* What the dead-end test remembers of the positions asked before. */
typedef struct {
    long long alive;                  /* positions the plain closure left alive */
    Split killers[16]; int nkillers;  /* splits that proved positions dead, latest first */
} DeadState;

typedef struct {
    int np, F0, nf, T0, nt, stock, waste, total;
    int8_t pair[MAXP][2];             /* the two piles covering a pile; -1: never covered */
    uint8_t gone[MAXP];               /* takes no card once empty (middle and front piles) */
    uint8_t covered[MAXP][2], ncovered[MAXP];   /* the piles a pile covers, in order */
    uint8_t drop[MAXP][3]; int ndrop; /* (x, a, b): piles that may be dropped onto, covered by a, b */
    uint8_t back[MAXP][3]; int nback; /* back piles and their covers: sorted in the key */
    uint8_t fits[64][64];             /* fits[under][over]: over may be built on under */
    uint8_t fit_order[64][4], nfit[64];   /* fits_on[under], in its frozenset's order */
    uint8_t head[64];                 /* cards that may head a group to an empty back pile */
    uint8_t other[4][2], same[4];     /* safe cards: the suits of the other colour, the other suit of its colour */
    double w_home, w_block, w_urgent, w_buried, w_down, w_empty, w_covered, w_reserve, w_unsorted;
    int slot;                         /* bytes of an encoded position, at most */
    DeadRules dead;
} Rules;

typedef struct {
    uint8_t len[MAXP];
    uint8_t c[MAXP][MAXH];
    uint32_t redeals;
} Pos;

/* A move: source, destination, cards; (stock, waste, k) stands for k turns. */
typedef struct { uint8_t src, dst, n; } Plan;

static void decode(const Rules *R, const uint8_t *b, Pos *p) {
    for (int i = 0; i < R->np; i++) {
        if (i >= R->F0 && i < R->F0 + R->nf) {
            int top = *b++, n = top ? (top & 15) : 0;          /* up in suit from the Ace */
            p->len[i] = (uint8_t)n;
            for (int r = 1; r <= n; r++) p->c[i][r - 1] = (uint8_t)((top & 0x30) | r);
        } else {
            int n = p->len[i] = *b++;
            memcpy(p->c[i], b, n);
            b += n;
        }
    }
    p->redeals = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static int encode(const Rules *R, const Pos *p, uint8_t *b) {
    uint8_t *start = b;
    for (int i = 0; i < R->np; i++) {
        int n = p->len[i];
        if (i >= R->F0 && i < R->F0 + R->nf) {
            *b++ = n ? p->c[i][n - 1] : 0;
        } else {
            *b++ = (uint8_t)n;
            memcpy(b, p->c[i], n);
            b += n;
        }
    }
    for (int k = 0; k < 4; k++) *b++ = (uint8_t)(p->redeals >> (8 * k));
    return (int)(b - start);
}

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


/* ------------------------------------------------------------------ the family-free loop */
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
typedef struct { uint32_t parent, moves, depth, slot; uint16_t nmoves; } Node;   /* interlock: uint16_t nmoves */
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
    Bytes moves;                        /* 3 bytes a move: source, destination, cards (interlock:
                                           stock, waste, k stands for k turns) */
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
    PyObject *dead;                     /* interlock: the dead-end test, called back (or NULL) */
    DeadState dead_state;               /* interlock: the dead-end test's memory, when in C */
} Search;

static int64_t new_node(Search *S, uint32_t parent, const Plan *m, int nm, uint32_t depth) {
    if (grow((void **)&S->nodes, &S->cnodes, S->nnodes + 1, sizeof(Node))) return -1;
    if (bytes_reserve(&S->moves, 3 * (size_t)nm) || S->moves.size + 3 * (size_t)nm > NONE32) return -1;
    Node *n = &S->nodes[S->nnodes];
    n->parent = parent; n->moves = (uint32_t)S->moves.size; n->nmoves = (uint16_t)nm;   /* interlock: 16 bits */
    n->depth = depth; n->slot = NONE32;
    memcpy(S->moves.data + S->moves.size, m, 3 * (size_t)nm);
    S->moves.size += 3 * (size_t)nm;
    return (int64_t)S->nnodes++;
}

static int store(Search *S, uint32_t node, const Pos *p) {
    uint32_t slot;
    if (S->nfree) slot = S->free_slots[--S->nfree];
    else {
        if (grow((void **)&S->slots, &S->cslots, (S->nslots + 1) * S->R.slot, 1)) return -1;
        slot = (uint32_t)S->nslots++;
    }
    encode(&S->R, p, S->slots + (size_t)slot * S->R.slot);
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

/* _Search.admit: is the key new to this search (it is recorded)? 1, 0, or -1. */
static int admit(Search *S, const uint8_t *k, int n) {
    S->generated++;
    uint64_t h = hash_bytes(k, n);
    if (S->old_table.size && keyset_has(&S->old_table, k, n, h)) return 0;
    size_t size = S->table.size;
    int added = keyset_add(&S->table, k, n, h);
    if (added <= 0) return added;
    if (size + 1 >= S->table_half) {                 /* evict the older generation */
        keyset_free(&S->old_table);
        S->old_table = S->table;
        memset(&S->table, 0, sizeof S->table);
    }
    return 1;
}

static int push_child(Search *S, uint32_t parent, const Plan *m, int nm, uint32_t depth,
                      const Pos *p, double value, int64_t *won) {
    int64_t node = new_node(S, parent, m, nm, depth);
    if (node < 0) return -1;
    if (value == 0.0) { *won = node; return 0; }    /* every card home */
    if (S->best_node < 0 || value < S->best_score) { S->best_score = value; S->best_node = node; }
    if (store(S, (uint32_t)node, p)) return -1;
    S->order--;
    return push(S, (Entry){value + S->depth_weight * depth, S->order, (uint32_t)node});
}
/* ------------------------------------------------------------------ end of the family-free loop */

/* ------------------------------------------------------------------ Interlock's moves */

/* What the foundations of a position imply. */
typedef struct {
    int level[4];                     /* the rank home, by suit */
    int fpile[4];                     /* the foundation of each suit, or -1 */
    int first_empty, home;            /* the first empty foundation (-1: none), cards home */
    int8_t need[64];                  /* heuristics.need_tables */
    uint8_t safe[64];                 /* bridges._safe_next */
    int nsafe;
} Facts;

static void facts_of(const Rules *R, const Pos *p, Facts *f) {
    for (int s = 0; s < 4; s++) { f->level[s] = 0; f->fpile[s] = -1; }
    f->first_empty = -1;
    f->home = 0;
    for (int i = R->F0; i < R->F0 + R->nf; i++) {
        int n = p->len[i];
        if (!n) {
            if (f->first_empty < 0) f->first_empty = i;
            continue;
        }
        int top = p->c[i][n - 1], s = top >> 4 & 3;
        f->level[s] = top & 15;
        f->fpile[s] = i;
        f->home += n;
    }
    memset(f->safe, 0, sizeof f->safe);
    f->nsafe = 0;
    for (int s = 0; s < 4; s++) {
        for (int r = 1; r <= 13; r++) f->need[s << 4 | r] = (int8_t)(r - f->level[s]);
        int rank = f->level[s] + 1, lo = f->level[R->other[s][0]];
        if (f->level[R->other[s][1]] < lo) lo = f->level[R->other[s][1]];
        if (rank > KING || lo < rank - 2 || f->level[R->same[s]] < rank - 3) continue;
        f->safe[s << 4 | rank] = 1;
        f->nsafe++;
    }
}

static inline int uncovered(const Rules *R, const Pos *p, int t) {
    return R->pair[t][0] < 0 || !(p->len[R->pair[t][0]] || p->len[R->pair[t][1]]);
}

static inline int top_of(const Pos *p, int t) { return p->c[t][p->len[t] - 1]; }

static int run_length(const Rules *R, const uint8_t *pile, int size) {
    if (!size) return 0;
    int n = 1;
    while (n < size && R->fits[pile[size - n - 1]][pile[size - n]]) n++;
    return n;
}

/* stock.cycle: the reserve's cards in turning order, from the waste's bottom, face up. */
static int cycle_of(const Rules *R, const Pos *p, uint8_t *out) {
    int w = p->len[R->waste], s = p->len[R->stock];
    memcpy(out, p->c[R->waste], w);
    for (int i = 0; i < s; i++) out[w + i] = p->c[R->stock][s - 1 - i] & 63;
    return w + s;
}

/* The waste holds the first ``on_waste`` cards of ``order``, the stock the rest, face down. */
static void set_reserve(const Rules *R, Pos *p, const uint8_t *order, int size, int on_waste) {
    memcpy(p->c[R->waste], order, on_waste);
    p->len[R->waste] = (uint8_t)on_waste;
    int s = size - on_waste;
    for (int i = 0; i < s; i++) p->c[R->stock][i] = order[size - 1 - i] | 64;
    p->len[R->stock] = (uint8_t)s;
}

/* The order CPython 3.11 iterates ``set(items)`` in, for distinct ints 1..63 (their own
 * hashes): open addressing with 9 linear probes, then perturbed jumps; the table, 8 slots
 * at first, grows to the power of two above 4 x used once 5 x fill reaches 3 x mask, its
 * entries put again in slot order. */
static void set_insert(uint8_t *table, size_t mask, uint8_t key) {
    size_t perturb = key, i = key & mask;
    for (;;) {
        int probes = i + 9 <= mask ? 9 : 0;
        size_t j = i;
        do {
            if (!table[j]) { table[j] = key; return; }
            if (table[j] == key) return;
            j++;
        } while (probes--);
        perturb >>= 5;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

static int set_order(const uint8_t *items, int n, uint8_t *out) {
    uint8_t table[256] = {0}, old[256];
    size_t mask = 7, fill = 0;
    for (int k = 0; k < n; k++) {
        set_insert(table, mask, items[k]);
        fill++;                                 /* the items are distinct */
        if (fill * 5 >= mask * 3) {
            size_t size = 8;
            while (size <= fill * 4) size <<= 1;
            if (size > 256) return -1;
            memcpy(old, table, mask + 1);
            size_t oldmask = mask;
            mask = size - 1;
            memset(table, 0, size);
            for (size_t i = 0; i <= oldmask; i++)
                if (old[i]) set_insert(table, mask, old[i]);
        }
    }
    int m = 0;
    for (size_t i = 0; i <= mask; i++)
        if (table[i]) out[m++] = table[i];
    return m;
}

/* A successor's moves; ``count`` counts every move, each turn too (its depth). */
typedef struct { Plan m[MAXMOVES]; int n, count, over; } Moves;

static inline void mv_add(Moves *mv, int src, int dst, int n) {
    if (mv->n >= MAXMOVES) { mv->over = 1; return; }
    mv->m[mv->n++] = (Plan){(uint8_t)src, (uint8_t)dst, (uint8_t)n};
    mv->count++;
}

static void mv_turns(const Rules *R, Moves *mv, int k) {
    while (k > 0) {
        int run = k < 255 ? k : 255;
        if (mv->n >= MAXMOVES) { mv->over = 1; return; }
        mv->m[mv->n++] = (Plan){(uint8_t)R->stock, (uint8_t)R->waste, (uint8_t)run};
        mv->count += run;
        k -= run;
    }
}

static void redeal(const Rules *R, Pos *p, Moves *mv) {
    mv_add(mv, R->waste, R->stock, 1);
    p->redeals++;
}

/* stock.turn_up: the turns that bring reserve card ``card`` to the top of the waste. */
static void turn_up(const Rules *R, Pos *p, int card, Moves *mv) {
    int now = p->len[R->waste];
    if (now && p->c[R->waste][now - 1] == card) return;
    uint8_t order[MAXH];
    int size = cycle_of(R, p, order), i = now;
    while (i < size && order[i] != card) i++;
    if (i < size) mv_turns(R, mv, i + 1 - now);
    else {
        for (i = 0; i < size && order[i] != card; i++) ;
        mv_turns(R, mv, size - now);
        redeal(R, p, mv);
        mv_turns(R, mv, i + 1);
    }
    set_reserve(R, p, order, size, i + 1);
}

static inline void move_cards(Pos *p, int src, int dst, int n) {
    int s = p->len[src] - n;
    memcpy(p->c[dst] + p->len[dst], p->c[src] + s, n);
    p->len[dst] += n;
    p->len[src] = (uint8_t)s;
}

/* bridges._safe_card: (card, pile) of a card that goes home next and safely, pile -1 for
 * the reserve; 0 if none. */
static int safe_card(const Rules *R, const Pos *p, const Facts *f, int *card, int *src) {
    if (!f->nsafe) return 0;
    for (int t = R->T0; t < R->T0 + R->nt; t++)
        if (p->len[t] && f->safe[top_of(p, t)] && uncovered(R, p, t)) { *card = top_of(p, t); *src = t; return 1; }
    int w = p->len[R->waste];
    if (w && f->safe[p->c[R->waste][w - 1]]) { *card = p->c[R->waste][w - 1]; *src = -1; return 1; }
    uint8_t order[MAXH];
    int size = cycle_of(R, p, order);
    for (int i = 0; i < size; i++)
        if (f->safe[order[i]]) { *card = order[i]; *src = -1; return 1; }
    return 0;
}

/* foundations_for(card)'s first: its suit's foundation, or an Ace's first empty one. */
static inline int home_of(const Facts *f, int card) {
    return (card & 15) == 1 ? f->first_empty : f->fpile[card >> 4 & 3];
}

/* bridges.settle: the safe cards home, from a pile that may give them or the reserve.
 * ``f`` holds the position's facts, before and after. */
static void settle(const Rules *R, Pos *p, Moves *mv, Facts *f) {
    for (;;) {
        int card, src;
        if (!safe_card(R, p, f, &card, &src)) return;
        if (src < 0) { turn_up(R, p, card, mv); src = R->waste; }
        int dst = home_of(f, card);
        move_cards(p, src, dst, 1);
        mv_add(mv, src, dst, 1);
        facts_of(R, p, f);
    }
}

/* InterlockExpander._may_expose (``f``: the position's facts). */
static int may_expose(const Rules *R, const Pos *p, int src, const Facts *f) {
    if (!f->nsafe) return 0;
    if (p->len[src]) return f->safe[top_of(p, src)];
    for (int k = 0; k < R->ncovered[src]; k++) {
        int q = R->covered[src][k];
        if (p->len[q] && f->safe[top_of(p, q)] && uncovered(R, p, q)) return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ key and score */

/* bytes(pile) + b"\xff" against another's, as Python compares bytes. */
static int cmp_part(const Pos *p, int a, int b) {
    int la = p->len[a], lb = p->len[b], n = la < lb ? la : lb;
    for (int j = 0; j < n; j++)
        if (p->c[a][j] != p->c[b][j]) return p->c[a][j] - p->c[b][j];
    return la == lb ? 0 : la < lb ? 1 : -1;         /* the shorter one's 0xff is the larger */
}

/* solver/keys.py _cycle_key with keys.backs_uncovered: the foundations sorted as bytes,
 * no cells, then every tableau pile and 0xff, the uncovered back piles' parts sorted. */
static int key_of(const Rules *R, const Pos *p, uint8_t *k) {
    uint8_t *start = k;
    int fs[MAXP], nfs = 0;
    for (int i = R->F0; i < R->F0 + R->nf; i++) {      /* empty first, then by first card */
        int j = nfs++, v = p->len[i] ? p->c[i][0] : -1;
        while (j > 0 && (p->len[fs[j - 1]] ? p->c[fs[j - 1]][0] : -1) > v) { fs[j] = fs[j - 1]; j--; }
        fs[j] = i;
    }
    for (int j = 0; j < nfs; j++) {
        if (j) *k++ = 0xff;
        memcpy(k, p->c[fs[j]], p->len[fs[j]]);
        k += p->len[fs[j]];
    }
    *k++ = 0xfe;
    *k++ = 0xfe;
    int from[MAXP];
    for (int t = R->T0; t < R->T0 + R->nt; t++) from[t] = t;
    int free_[MAXP], nfree = 0, sorted[MAXP];
    for (int i = 0; i < R->nback; i++) {
        const uint8_t *b = R->back[i];
        if (!(p->len[b[1]] || p->len[b[2]])) free_[nfree++] = b[0];
    }
    if (nfree > 1) {
        for (int i = 0; i < nfree; i++) {
            int j = i, t = free_[i];
            while (j > 0 && cmp_part(p, sorted[j - 1], t) > 0) { sorted[j] = sorted[j - 1]; j--; }
            sorted[j] = t;
        }
        for (int i = 0; i < nfree; i++) from[free_[i]] = sorted[i];
    }
    for (int t = R->T0; t < R->T0 + R->nt; t++) {
        int u = from[t];
        memcpy(k, p->c[u], p->len[u]);
        k += p->len[u];
        *k++ = 0xff;
    }
    memset(k, 0, 8);
    return (int)(k - start);
}

static double pile_value(const Rules *R, const uint8_t *pile, int size, const int8_t *need) {
    int blockers = 0, depth = 0, down = 0, lowest = 99, deepest = size;
    for (int j = 0; j < size; j++) {
        if (pile[j] & 64) down++;
        int n = need[pile[j] & 63];
        if (n > lowest) blockers++;
        else { lowest = n; deepest = j; }
        if (n == 1) depth += size - 1 - j;
    }
    double value = R->w_block * blockers + R->w_urgent * depth + R->w_down * down
                   + R->w_buried * (size - 1 - deepest);
    if (R->w_unsorted != 0.0) {
        int run = size - 1;
        while (run > 0 && R->fits[pile[run - 1]][pile[run]]) run--;
        value += R->w_unsorted * run;
    }
    return value;
}

/* heuristics.patience_score with Interlock's covers and gone piles. */
static double score(const Rules *R, const Pos *p, const Facts *f) {
    if (f->home == R->total) return 0.0;
    double value = R->w_home * (R->total - f->home);
    int empty = 0, covered = 0;
    for (int t = R->T0; t < R->T0 + R->nt; t++) {
        int n = p->len[t];
        if (!n) {
            if (!R->gone[t]) empty += uncovered(R, p, t);
            continue;
        }
        if (!uncovered(R, p, t)) covered += n;
        value += pile_value(R, p->c[t], n, f->need);
    }
    int reserve = p->len[R->stock] + p->len[R->waste];
    value += R->w_covered * covered - R->w_reserve * reserve - R->w_empty * empty;
    return value > 0.5 ? value : 0.5;
}


/* ------------------------------------------------------------------ dead ends */

/* deadends.py's DeadEnds.is_dead, written again: the same closures, in the same order of
 * rules and cards within a pass (``uses``, which suggests the splits, records when a card
 * moved, so the order counts), the same splits tried, the same killers kept. The tables
 * (each card's pair: the card and its two hosts; the virtual cards; the constants) are
 * DeadEnds' own, handed over by native.py. */

typedef struct { uint8_t card, suit, rank, h0, h1; } Buried;

/* DeadEnds._start and _facts: what every closure of a position starts from. */
typedef struct {
    int home[4];
    int8_t pile_of[64];
    Buried buried[64]; int nburied;
    uint8_t drops[MAXP][2][2], ndrops[MAXP];     /* rule E's dropdowns: (top, other cover) */
    uint8_t empty[MAXP], uncovered[MAXP], available[64], bare[64];
    uint8_t waiting[MAXP]; int nwaiting, slots;
    uint8_t reserve[MAXH]; int nreserve;
} Start;

static int buried_entry(const uint8_t (*pair)[3], const Split *splits, int ns, int card, int guest, Buried *e) {
    int h0 = pair[guest][1], h1 = pair[guest][2];
    for (int i = 0; i < ns; i++)
        if (guest == splits[i].guest && card == splits[i].host) {      /* on the host */
            if (h0 == splits[i].virtual_) h0 = 0;
            if (h1 == splits[i].virtual_) h1 = 0;
        }
    *e = (Buried){(uint8_t)card, (uint8_t)(guest >> 4 & 3), (uint8_t)(guest & 15),
                  (uint8_t)(h0 == card ? 0 : h0), (uint8_t)(h1 == card ? 0 : h1)};
    return 0;
}

static void start_of(const Rules *R, const Pos *p, Start *st) {
    const DeadRules *D = &R->dead;
    for (int s = 0; s < 4; s++) st->home[s] = 0;
    for (int i = R->F0; i < R->F0 + R->nf; i++)
        if (p->len[i]) { int top = top_of(p, i); st->home[top >> 4 & 3] = top & 15; }
    memset(st->pile_of, -1, sizeof st->pile_of);
    memset(st->bare, 0, sizeof st->bare);
    st->nburied = 0;
    for (int t = R->T0; t < R->T0 + R->nt; t++) {
        int n = p->len[t];
        if (!n) continue;
        for (int j = 0; j < n; j++) st->pile_of[p->c[t][j]] = (int8_t)t;
        st->bare[p->c[t][n - 1]] = 1;
        for (int j = 0; j + 1 < n; j++)
            buried_entry(D->pair, NULL, 0, p->c[t][j], p->c[t][j + 1], &st->buried[st->nburied++]);
    }
    for (int t = R->T0; t < R->T0 + R->nt; t++) {      /* _drop_targets */
        st->ndrops[t] = 0;
        if (!p->len[t]) continue;
        int bottom = p->c[t][0];
        for (int k = 0; k < R->ncovered[t]; k++) {
            int q = R->covered[t][k];
            if (!p->len[q]) continue;
            int top = top_of(p, q);
            if (top && (top == D->pair[bottom][1] || top == D->pair[bottom][2])) {
                int other = R->pair[q][0] == t ? R->pair[q][1] : R->pair[q][0];
                st->drops[t][st->ndrops[t]][0] = (uint8_t)top;
                st->drops[t][st->ndrops[t]][1] = (uint8_t)other;
                st->ndrops[t]++;
            }
        }
    }
    for (int i = 0; i < R->np; i++) st->empty[i] = !p->len[i];    /* _facts, _opening */
    memset(st->uncovered, 0, sizeof st->uncovered);
    memset(st->available, 0, sizeof st->available);
    st->nwaiting = st->slots = 0;
    for (int t = R->T0; t < R->T0 + R->nt; t++) {
        if (R->pair[t][0] < 0 || (st->empty[R->pair[t][0]] && st->empty[R->pair[t][1]])) {
            st->uncovered[t] = 1;
            if (st->empty[t]) st->slots += D->is_back[t];
            else st->waiting[st->nwaiting++] = (uint8_t)t;
        }
    }
    for (int i = 0; i < st->nwaiting; i++) st->available[top_of(p, st->waiting[i])] = 1;
    st->nreserve = 0;
    for (int i = 0; i < p->len[R->stock]; i++) st->reserve[st->nreserve++] = p->c[R->stock][i] & 63;
    for (int i = 0; i < p->len[R->waste]; i++) st->reserve[st->nreserve++] = p->c[R->waste][i] & 63;
}

static int drops_ok(const Start *st, int t, const uint8_t *empty, int bottom, const int *home,
                    const uint8_t *available, const Split *splits, int ns) {
    for (int k = 0; k < st->ndrops[t]; k++) {
        int top = st->drops[t][k][0];
        if (!empty[st->drops[t][k][1]]) continue;
        int ok = 1;
        for (int i = 0; i < ns && ok; i++) {
            const Split *s = &splits[i];
            ok = bottom != s->guest || top != s->host || home[s->twin >> 4 & 3] >= (s->twin & 15)
                 || available[s->other];
        }
        if (ok) return 1;
    }
    return 0;
}

/* DeadEnds._closure: 1 if every card is found to go home. */
static int closure(const Rules *R, const Pos *p, const uint8_t (*pair)[3], const Split *splits, int ns,
                   uint8_t *uses, const Start *st) {
    const DeadRules *D = &R->dead;
    int home[4];
    memcpy(home, st->home, sizeof home);
    Buried buried[64], still_buried[64];
    int nb = st->nburied;
    memcpy(buried, st->buried, nb * sizeof(Buried));
    for (int i = 0; i < ns; i++) {                       /* the guests' entries */
        int guest = splits[i].guest, t = st->pile_of[guest];
        if (t < 0) continue;
        int j = 0;
        while (p->c[t][j] != guest) j++;
        if (!j) continue;
        Buried e;
        buried_entry(pair, splits, ns, p->c[t][j - 1], guest, &e);
        for (int k = 0; k < nb; k++)
            if (buried[k].card == e.card) buried[k] = e;
    }
    uint8_t empty[MAXP], uncovered[MAXP], available[64], bare[64];
    memcpy(empty, st->empty, sizeof empty);
    memcpy(uncovered, st->uncovered, sizeof uncovered);
    memcpy(available, st->available, sizeof available);
    memcpy(bare, st->bare, sizeof bare);
    uint8_t waiting[MAXP], still[2 * MAXP];
    int nw = st->nwaiting, slots = st->slots;
    memcpy(waiting, st->waiting, nw);
    uint8_t reserve[MAXH], unplaced[MAXH];
    int nr = st->nreserve;
    memcpy(reserve, st->reserve, nr);
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int i = 0; i < ns; i++) {
            const Split *s = &splits[i];
            if (!available[s->virtual_] && available[s->host] &&
                    (home[s->twin >> 4 & 3] >= (s->twin & 15) || available[s->other]))
                available[s->virtual_] = changed = 1;
        }
        int nstill = 0, freed = 0;
        for (int w = 0; w < nw; w++) {
            int t = waiting[w], bottom = pair[p->c[t][0]][0], h0 = pair[p->c[t][0]][1], h1 = pair[p->c[t][0]][2];
            int rank = bottom & 15;
            if (!(home[bottom >> 4 & 3] >= rank || available[h0] || available[h1] || (rank == KING && slots)
                  || (st->ndrops[t] && drops_ok(st, t, empty, bottom, home, available, splits, ns)))) {
                still[nstill++] = (uint8_t)t;
                continue;
            }
            empty[t] = changed = 1;
            if (uses) {
                uses[bottom] |= available[h0] | available[h1] << 1;
                for (int k = 0; k < st->ndrops[t]; k++)     /* a dropdown uses its host too */
                    if (empty[st->drops[t][k][1]]) {
                        int y = st->drops[t][k][0];
                        uses[bottom] |= (h0 == y) | (h1 == y) << 1;
                    }
            }
            slots += D->is_back[t];
            for (int k = 0; k < R->ncovered[t]; k++) {
                int q = R->covered[t][k];
                if (!uncovered[q] && empty[R->pair[q][0]] && empty[R->pair[q][1]]) {
                    uncovered[q] = 1;
                    for (int j = 0; j < p->len[q]; j++) available[p->c[q][j]] = bare[p->c[q][j]];
                    slots += D->is_back[q] && empty[q];
                    if (p->len[q]) { still[nstill++] = (uint8_t)q; freed = 1; }
                }
            }
        }
        if (freed)
            for (int i = 1; i < nstill; i++)
                for (int j = i; j > 0 && still[j - 1] > still[j]; j--) {
                    uint8_t x = still[j]; still[j] = still[j - 1]; still[j - 1] = x;
                }
        memcpy(waiting, still, nstill);
        nw = nstill;
        int ns_b = 0;
        for (int k = 0; k < nb; k++) {                   /* rule B */
            Buried e = buried[k];
            if (home[e.suit] >= e.rank || available[e.h0] || available[e.h1] || (e.rank == KING && slots)) {
                bare[e.card] = changed = 1;
                if (uses) uses[e.suit << 4 | e.rank] |= available[e.h0] | available[e.h1] << 1;
                available[e.card] = uncovered[st->pile_of[e.card]];
            } else still_buried[ns_b++] = e;
        }
        memcpy(buried, still_buried, ns_b * sizeof(Buried));
        nb = ns_b;
        int nu = 0;
        for (int k = 0; k < nr; k++) {                   /* rule A for reserve cards */
            int card = reserve[k], h0 = pair[card][1], h1 = pair[card][2];
            if (available[h0] || available[h1] || ((card & 15) == KING && slots)) {
                available[card] = changed = 1;
                if (uses) uses[card] |= available[h0] | available[h1] << 1;
            } else unplaced[nu++] = (uint8_t)card;
        }
        memcpy(reserve, unplaced, nu);
        nr = nu;
        int all = 1;
        for (int s = 0; s < 4; s++) {
            while (home[s] < KING) {
                int card = s << 4 | (home[s] + 1), t = st->pile_of[card];
                if (t >= 0 && !(uncovered[t] && bare[card])) break;
                home[s]++;
                changed = 1;
            }
            all &= home[s] == KING;
        }
        if (all) return 1;
    }
    return 0;
}

/* DeadEnds._splits: (guest, twin, host, other host) for each pair of twins that moved while
 * one and the same host alone was available to both; in card order, so sorted. */
static int splits_of(const Rules *R, const uint8_t *uses, Split *out) {
    const DeadRules *D = &R->dead;
    int n = 0;
    for (int card = 0; card < 64; card++) {
        int u = uses[card];
        if ((card & 0x30) <= 0x10 && (u == 1 || u == 2) && u == uses[card ^ D->twin]) {
            int h0 = D->pair[card][1], h1 = D->pair[card][2];
            out[n++] = (Split){(uint8_t)card, (uint8_t)(card ^ D->twin), (uint8_t)(u == 1 ? h0 : h1),
                               (uint8_t)(u == 1 ? h1 : h0), 0};
        }
    }
    return n;
}

static int dead_under(const Rules *R, const Pos *p, const Split *splits, int ns, int depth, const Start *st);

/* DeadEnds._lost_both_ways: dead under both cases of the split, each with ``splits`` kept. */
static int lost_both_ways(const Rules *R, const Pos *p, const Split *split, const Split *splits, int ns,
                          int depth, const Start *st) {
    Split more[4];
    if (ns >= 3) return 0;                       /* VIRTUALS: deeper nesting never asked */
    memcpy(more, splits, ns * sizeof(Split));
    for (int c = 0; c < 2; c++) {
        more[ns] = (Split){c ? split->guest : split->twin, c ? split->twin : split->guest, split->host,
                           split->other, R->dead.virtuals[ns]};
        if (!dead_under(R, p, more, ns + 1, depth, st)) return 0;
    }
    return 1;
}

static int dead_under(const Rules *R, const Pos *p, const Split *splits, int ns, int depth, const Start *st) {
    uint8_t pair[64][3], uses[64] = {0};
    memcpy(pair, R->dead.pair, sizeof pair);                 /* _split_pair */
    for (int i = 0; i < ns; i++)
        for (int j = 0; j < 3; j++)
            if (pair[splits[i].guest][j] == splits[i].host) pair[splits[i].guest][j] = splits[i].virtual_;
    if (!closure(R, p, (const uint8_t (*)[3])pair, splits, ns, depth ? uses : NULL, st)) return 1;
    if (depth <= 0) return 0;
    Split found[64];
    int n = splits_of(R, uses, found);
    for (int k = 0; k < n; k++) {
        int kept = 0;
        for (int i = 0; i < ns; i++) {
            int g = splits[i].guest, low = g < (g ^ R->dead.twin) ? g : (g ^ R->dead.twin);
            kept |= found[k].guest == low;
        }
        if (!kept && lost_both_ways(R, p, &found[k], splits, ns, depth - 1, st)) return 1;
    }
    return 0;
}

static int same_split(const Split *a, const Split *b) {
    return a->guest == b->guest && a->twin == b->twin && a->host == b->host && a->other == b->other;
}

/* DeadEnds.is_dead: the plain closure, then some splits, by the search's history. */
static int dead_end(const Rules *R, DeadState *DS, const Pos *p) {
    const DeadRules *D = &R->dead;
    Start st;
    uint8_t uses[64] = {0};
    start_of(R, p, &st);
    if (!closure(R, p, (const uint8_t (*)[3])D->pair, NULL, 0, uses, &st)) return 1;
    DS->alive++;
    if (DS->alive == 1) return dead_under(R, p, NULL, 0, D->first_depth, &st);
    if (DS->alive <= D->plain_first) return 0;
    Split splits[64], tries[64 + 8];
    int n = splits_of(R, uses, splits), nt = 0;
    for (int k = 0; k < DS->nkillers && nt < D->killer_tries; k++)
        for (int i = 0; i < n; i++)
            if (same_split(&DS->killers[k], &splits[i])) { tries[nt++] = DS->killers[k]; break; }
    if (DS->alive % D->scout == 0)
        for (int i = 0; i < n; i++) {
            int known = 0;
            for (int k = 0; k < DS->nkillers; k++) known |= same_split(&DS->killers[k], &splits[i]);
            if (!known) tries[nt++] = splits[i];
        }
    for (int i = 0; i < nt; i++) {
        if (!lost_both_ways(R, p, &tries[i], NULL, 0, 0, &st)) continue;
        Split s = tries[i];
        int at = DS->nkillers;
        for (int k = 0; k < DS->nkillers; k++)
            if (same_split(&DS->killers[k], &s)) { at = k; break; }
        if (at == DS->nkillers && DS->nkillers < D->killers) DS->nkillers++;
        if (at >= DS->nkillers) at = DS->nkillers - 1;      /* the last one falls out */
        memmove(DS->killers + 1, DS->killers, at * sizeof(Split));
        DS->killers[0] = s;
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ one expansion */

/* The position expanded and what each successor needs of it. */
typedef struct {
    const Pos *p;
    uint32_t node, depth;
    int settled;                      /* no safe card in it (InterlockExpander._settled_moves) */
    int64_t won;
    int error;                        /* -2 out of memory, -3 too many moves */
} Ctx;

/* GenericExpander.scored and _Search.expand_next for one successor before settling: ``src``
 * is the pile the cards left, -1 if the foundations changed. 1 once won or failed. */
static int offer(Search *S, Ctx *x, Pos *q, Moves *mv, int src) {
    const Rules *R = &S->R;
    Facts f;
    facts_of(R, q, &f);
    if (src < 0 || !x->settled || may_expose(R, q, src, &f)) settle(R, q, mv, &f);
    if (mv->over) { x->error = -3; return 1; }
    uint8_t key[KEYBUF];
    int ok = admit(S, key, key_of(R, q, key));
    if (ok < 0) { x->error = -2; return 1; }
    if (!ok) return 0;
    if (push_child(S, x->node, mv->m, mv->n, x->depth + (uint32_t)mv->count, q, score(R, q, &f), &x->won)) {
        x->error = -2;
        return 1;
    }
    return x->won >= 0;
}

/* One move of moves.plans: ``n`` cards from ``src`` to ``dst``. */
static int offer_move(Search *S, Ctx *x, int src, int dst, int n, int to_foundation) {
    Pos q = *x->p;
    Moves mv;
    mv.n = mv.count = mv.over = 0;
    move_cards(&q, src, dst, n);
    mv_add(&mv, src, dst, n);
    return offer(S, x, &q, &mv, to_foundation ? -1 : src);
}

static int cmp_pair(const void *a, const void *b) {
    const uint8_t *u = a, *v = b;
    return u[0] != v[0] ? u[0] - v[0] : u[1] - v[1];
}

/* stock.play_home: ``chain`` from the reserve onto foundation ``f``, then pile ``a``'s top (-1: none). */
static int offer_home(Search *S, Ctx *x, const uint8_t *chain, int k, int f, int a) {
    const Rules *R = &S->R;
    Pos q = *x->p;
    Moves mv;
    mv.n = mv.count = mv.over = 0;
    for (int i = 0; i < k; i++) {
        turn_up(R, &q, chain[i], &mv);
        move_cards(&q, R->waste, f, 1);
        mv_add(&mv, R->waste, f, 1);
    }
    if (a >= 0) {
        move_cards(&q, a, f, 1);
        mv_add(&mv, a, f, 1);
    }
    return offer(S, x, &q, &mv, -1);
}

/* stock.play_bridge: ``chain`` from the reserve onto pile ``b`` (play_off), then the unit of
 * ``n`` cards of pile ``a`` onto it. */
static int offer_bridge(Search *S, Ctx *x, const uint8_t *chain, int k, int b, int a, int n) {
    const Rules *R = &S->R;
    Pos q = *x->p;
    Moves mv;
    mv.n = mv.count = mv.over = 0;
    uint8_t order[MAXH];
    int size = cycle_of(R, &q, order), now = q.len[R->waste];
    for (int j = 0; j < k; j++) {
        int card = chain[j], i;
        if (now && order[now - 1] == card) i = now - 1;
        else {
            for (i = now; i < size && order[i] != card; i++) ;
            if (i < size) mv_turns(R, &mv, i + 1 - now);
            else {
                for (i = 0; i < size && order[i] != card; i++) ;
                mv_turns(R, &mv, size - now);
                redeal(R, &q, &mv);
                mv_turns(R, &mv, i + 1);
            }
        }
        mv_add(&mv, R->waste, b, 1);
        memmove(order + i, order + i + 1, size - i - 1);
        size--;
        now = i;
    }
    set_reserve(R, &q, order, size, now);
    int s = q.len[a] - n;
    memcpy(q.c[b] + q.len[b], chain, k);
    q.len[b] += k;
    memcpy(q.c[b] + q.len[b], q.c[a] + s, n);
    q.len[b] += n;
    q.len[a] = (uint8_t)s;
    mv_add(&mv, a, b, n);
    return offer(S, x, &q, &mv, a);
}

/* InterlockExpander._settled_moves (through _sourced), in its order: moves.plans(every=False)
 * (tableau tops home, runs between uncovered piles by source, destination and count,
 * dropdowns), then bridges.home_bridges, then bridges.bridges; each successor offered as
 * it comes, until one wins. */
static void expand_children(Search *S, Ctx *x) {
    const Rules *R = &S->R;
    const Pos *p = x->p;
    Facts f;
    facts_of(R, p, &f);
    int card, src;
    x->settled = !safe_card(R, p, &f, &card, &src);
    int T0 = R->T0, T1 = R->T0 + R->nt;
    int givers[MAXP], ng = 0;
    for (int t = T0; t < T1; t++)
        if (p->len[t] && uncovered(R, p, t)) givers[ng++] = t;
    int8_t want[64];                               /* foundation_wants */
    memset(want, -1, sizeof want);
    for (int i = R->F0; i < R->F0 + R->nf; i++)
        if (p->len[i] && (top_of(p, i) & 15) != KING) want[top_of(p, i) + 1] = (int8_t)i;
    for (int g = 0; g < ng; g++) {
        int s = givers[g], c = top_of(p, s);
        int dst = (c & 15) == 1 ? f.first_empty : want[c];
        if (dst >= 0 && offer_move(S, x, s, dst, 1, 1)) return;
    }
    uint8_t takes[64][MAXP], ntakes[64];           /* moves._takers */
    memset(ntakes, 0, sizeof ntakes);
    int empty_takers[MAXP], ne = 0;
    for (int t = T0; t < T1; t++) {
        if (p->len[t]) {
            if (uncovered(R, p, t)) {
                int top = top_of(p, t);
                for (int j = 0; j < R->nfit[top]; j++) {
                    int c = R->fit_order[top][j];
                    takes[c][ntakes[c]++] = (uint8_t)t;
                }
            }
        } else if (!R->gone[t] && uncovered(R, p, t)) empty_takers[ne++] = t;
    }
    for (int g = 0; g < ng; g++) {                 /* moves._tableau_moves */
        int s = givers[g], size = p->len[s];
        const uint8_t *pile = p->c[s];
        int run = run_length(R, pile, size);
        uint8_t found[MAXP * MAXH][2];
        int nf = 0;
        for (int n = 1; n <= run; n++) {
            int c = pile[size - n];
            for (int j = 0; j < ntakes[c]; j++)
                if (takes[c][j] != s) { found[nf][0] = takes[c][j]; found[nf][1] = (uint8_t)n; nf++; }
        }
        if (ne)
            for (int n = 1; n <= run; n++)
                if (R->head[pile[size - n]])
                    for (int j = 0; j < ne; j++) { found[nf][0] = (uint8_t)empty_takers[j]; found[nf][1] = (uint8_t)n; nf++; }
        if (nf > 1) qsort(found, nf, 2, cmp_pair);
        for (int i = 0; i < nf; i++)
            if (offer_move(S, x, s, found[i][0], found[i][1], 0)) return;
    }
    for (int d = 0; d < R->ndrop; d++) {           /* moves.dropdowns */
        int t = R->drop[d][0], a = R->drop[d][1], b = R->drop[d][2];
        if (!p->len[t] || !p->len[a] == !p->len[b]) continue;
        int y = p->len[a] ? a : b, n = p->len[y];
        if (uncovered(R, p, y) && R->fits[top_of(p, t)][p->c[y][0]] && run_length(R, p->c[y], n) == n)
            if (offer_move(S, x, y, t, n, 0)) return;
    }
    uint8_t order[MAXH], inres[64];
    int size = cycle_of(R, p, order);
    if (!size) return;
    memset(inres, 0, sizeof inres);
    for (int i = 0; i < size; i++) inres[order[i]] = 1;
    int8_t on_top[64];                              /* bridges.home_bridges */
    memset(on_top, -1, sizeof on_top);
    for (int t = T0; t < T1; t++)
        if (p->len[t] && uncovered(R, p, t)) on_top[top_of(p, t)] = (int8_t)t;
    for (int fi = R->F0; fi < R->F0 + R->nf; fi++) {
        uint8_t firsts[4];
        int nfirst = 0;
        if (p->len[fi]) {
            int top = top_of(p, fi);
            if ((top & 15) < KING && inres[top + 1]) firsts[nfirst++] = (uint8_t)(top + 1);
        } else if (fi == f.first_empty) {
            for (int s = 0; s < 4; s++) if (inres[s << 4 | 1]) firsts[nfirst++] = (uint8_t)(s << 4 | 1);
        } else continue;
        for (int i = 0; i < nfirst; i++) {          /* stock.home_chains */
            uint8_t chain[16];
            int k = 0;
            chain[k++] = firsts[i];
            for (;;) {
                int last = chain[k - 1];
                if ((last & 15) == KING) {
                    if (offer_home(S, x, chain, k, fi, -1)) return;
                    break;
                }
                if (on_top[last + 1] >= 0 && offer_home(S, x, chain, k, fi, on_top[last + 1])) return;
                if (!inres[last + 1]) break;
                chain[k++] = (uint8_t)(last + 1);
            }
        }
    }
    int8_t unit_pile[64];                           /* bridges._units */
    uint8_t unit_n[64];
    memset(unit_pile, -1, sizeof unit_pile);
    for (int g = 0; g < ng; g++) {
        int a = givers[g], n = p->len[a], run = run_length(R, p->c[a], n);
        for (int m = 1; m <= run; m++) { unit_pile[p->c[a][n - m]] = (int8_t)a; unit_n[p->c[a][n - m]] = (uint8_t)m; }
    }
    uint8_t kings[4];
    int nkings = -1;
    for (int b = T0; b < T1; b++) {                 /* bridges.bridges */
        if (!p->len[b] && R->gone[b]) continue;
        if (!uncovered(R, p, b)) continue;
        uint8_t starts[MAXH];
        int ns = 0;
        if (p->len[b]) {
            int top = top_of(p, b);
            for (int j = 0; j < R->nfit[top]; j++)
                if (inres[R->fit_order[top][j]]) starts[ns++] = R->fit_order[top][j];
        } else {
            if (nkings < 0) {                       /* the reserve's heads, in set(cycle)'s order */
                uint8_t all[MAXH];
                int m = set_order(order, size, all);
                if (m < 0) { x->error = -3; return; }
                nkings = 0;
                for (int i = 0; i < m; i++) if (R->head[all[i]] && nkings < 4) kings[nkings++] = all[i];
            }
            memcpy(starts, kings, nkings);
            ns = nkings;
        }
        for (int i = 0; i < ns; i++) {              /* bridges._chains: a stack of chains */
            uint8_t stack[64][16], depth[64];
            int sp = 0;
            stack[0][0] = starts[i]; depth[0] = 1; sp = 1;
            while (sp) {
                sp--;
                uint8_t chain[16];
                int k = depth[sp];
                memcpy(chain, stack[sp], k);
                int last = chain[k - 1];
                for (int j = 0; j < R->nfit[last]; j++) {
                    int h = R->fit_order[last][j];
                    if (unit_pile[h] >= 0 && unit_pile[h] != b)
                        if (offer_bridge(S, x, chain, k, b, unit_pile[h], unit_n[h])) return;
                }
                for (int j = 0; j < R->nfit[last]; j++) {
                    int c = R->fit_order[last][j];
                    if (inres[c] && k < 15 && sp < 64) {
                        memcpy(stack[sp], chain, k);
                        stack[sp][k] = (uint8_t)c;
                        depth[sp] = (uint8_t)(k + 1);
                        sp++;
                    }
                }
            }
        }
    }
}

/* The dead-end test (DeadEnds.is_dead, as PatienceExpander.expand asks it): in C, or the
 * Python one called back; 1 dead, 0 not, -1 a Python error. */
static int is_dead(Search *S, const Pos *p) {
    if (S->R.dead.on) return dead_end(&S->R, &S->dead_state, p);
    if (!S->dead) return 0;
    uint8_t buf[MAXP * (MAXH + 1) + 8];
    PyObject *arg = PyBytes_FromStringAndSize((char *)buf, encode(&S->R, p, buf));
    if (!arg) return -1;
    PyObject *r = PyObject_CallOneArg(S->dead, arg);
    Py_DECREF(arg);
    if (!r) return -1;
    int dead = PyObject_IsTrue(r);
    Py_DECREF(r);
    return dead;
}

/* _Search.expand_next with InterlockExpander.scored: the won node, -1 if none, -2 out of
 * memory, -3 more moves than MAXMOVES, -4 a Python error (the dead-end test's). */
static int64_t expand_next(Search *S, uint32_t *depth_out) {
    const Rules *R = &S->R;
    Entry e;
    if (pop(S, &e)) return -2;
    Node node = S->nodes[e.node];
    Pos p;
    decode(R, S->slots + (size_t)node.slot * R->slot, &p);
    if (release_slot(S, e.node)) return -2;
    *depth_out = node.depth;
    int dead = is_dead(S, &p);
    if (dead < 0) return -4;
    Ctx x = {&p, e.node, node.depth, 0, -1, 0};
    if (!dead) expand_children(S, &x);
    if (x.error) return x.error;
    if (x.won >= 0) return x.won;
    if (S->waiting > S->frontier_size) {             /* _Search.trim */
        if (keep(S, S->frontier_size / 2)) return -2;
        S->complete = 0;
    }
    return -1;
}

/* ------------------------------------------------------------------ Python's side */

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

static void Search_dealloc(Search *S) {
    free_all(S);
    Py_CLEAR(S->dead);
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

/* Search(layout, fits, fit_order, heads, safe, total, weights, depth_weight, explore,
 *        table_half, frontier_size, dead): layout has 7 bytes a pile (its kind: 0 foundation,
 *        2 tableau, 3 stock, 4 waste, each kind in one run; its two covering piles; gone
 *        once empty; a back pile; the two piles it covers; 0xff for none); fits 64x64
 *        bytes; fit_order 64x4 bytes (fits_on[card] in its set's order, 0xff after the
 *        last); heads 64 bytes; safe 12 bytes (by suit: the two suits of the other colour,
 *        then the other suit of its colour); weights the 9 of native.WEIGHTS; dead the
 *        dead-end test: None, a callable (position bytes -> dead?), or DeadEnds' tables for
 *        the test in C: (pair, 64 x 3 bytes; virtuals, 3 bytes; twin, killers, killer_tries,
 *        scout, plain_first, first_depth). */
static int Search_init(Search *S, PyObject *args, PyObject *kw) {
    PyObject *layout, *fits, *fit_order, *heads, *safe, *dead;
    int total;
    double w[9];
    double depth_weight, explore;
    Py_ssize_t table_half, frontier_size;
    if (!PyArg_ParseTuple(args, "SSSSSi(ddddddddd)ddnnO", &layout, &fits, &fit_order, &heads, &safe,
                          &total, &w[0], &w[1], &w[2], &w[3], &w[4], &w[5], &w[6], &w[7], &w[8],
                          &depth_weight, &explore, &table_half, &frontier_size, &dead))
        return -1;
    int in_c = PyTuple_Check(dead);
    if (dead != Py_None && !in_c && !PyCallable_Check(dead)) {
        PyErr_SetString(PyExc_TypeError, "search_core: dead must be a tuple, callable or None");
        return -1;
    }
    DeadRules D;
    memset(&D, 0, sizeof D);
    if (in_c) {
        PyObject *pair, *virtuals;
        if (!PyArg_ParseTuple(dead, "SSiiiiii", &pair, &virtuals, &D.twin, &D.killers, &D.killer_tries,
                              &D.scout, &D.plain_first, &D.first_depth))
            return -1;
        if (PyBytes_GET_SIZE(pair) != 192 || PyBytes_GET_SIZE(virtuals) != 3 || D.twin < 0 || D.twin > 63 ||
                D.killers < 1 || D.killers > 16 || D.killer_tries < 0 || D.scout < 1 || D.first_depth < 0 ||
                D.first_depth > 2) {
            PyErr_SetString(PyExc_ValueError, "search_core: malformed dead-end tables");
            return -1;
        }
        const uint8_t *pr = (const uint8_t *)PyBytes_AS_STRING(pair), *vr = (const uint8_t *)PyBytes_AS_STRING(virtuals);
        for (int i = 0; i < 192; i++)
            if (pr[i] >= 64) { PyErr_SetString(PyExc_ValueError, "search_core: malformed dead-end tables"); return -1; }
        for (int i = 0; i < 3; i++)
            if (vr[i] >= 64) { PyErr_SetString(PyExc_ValueError, "search_core: malformed dead-end tables"); return -1; }
        memcpy(D.pair, pr, 192);
        memcpy(D.virtuals, vr, 3);
        D.on = 1;
    }
    free_all(S);                                  /* a search set up again starts afresh */
    Py_CLEAR(S->dead);
    memset((char *)S + sizeof(PyObject), 0, sizeof(Search) - sizeof(PyObject));
    S->depth_weight = depth_weight;
    S->explore = explore;
    Rules *R = &S->R;
    Py_ssize_t size = PyBytes_GET_SIZE(layout);
    if (size % 7 || size / 7 < 1 || size / 7 > MAXP) {
        PyErr_SetString(PyExc_ValueError, "search_core: layout is 7 bytes a pile, 1 to 40 piles");
        return -1;
    }
    int np = (int)(size / 7);
    const uint8_t *L = (const uint8_t *)PyBytes_AS_STRING(layout), *ft, *fo, *hd, *sf;
    if (read_bytes(fits, "fits", 64 * 64, &ft) || read_bytes(fit_order, "fit_order", 64 * 4, &fo) ||
        read_bytes(heads, "heads", 64, &hd) || read_bytes(safe, "safe", 12, &sf))
        return -1;
    int first[5] = {-1, -1, -1, -1, -1}, count[5] = {0};
    for (int i = 0; i < np; i++) {
        int k = L[7 * i];
        if (k > 4 || k == 1 || (count[k] && first[k] + count[k] != i)) goto bad_layout;
        if (!count[k]) first[k] = i;
        count[k]++;
        for (int j = 1; j < 7; j++)
            if (j != 3 && j != 4 && L[7 * i + j] != 0xff && L[7 * i + j] >= np) goto bad_layout;
        if ((L[7 * i + 1] == 0xff) != (L[7 * i + 2] == 0xff)) goto bad_layout;
    }
    if (!count[0] || !count[2] || count[3] != 1 || count[4] != 1) goto bad_layout;
    R->np = np;
    R->F0 = first[0]; R->nf = count[0]; R->T0 = first[2]; R->nt = count[2];
    R->stock = first[3]; R->waste = first[4];
    for (int i = 0; i < np; i++) {
        const uint8_t *l = L + 7 * i;
        int tableau = l[0] == 2;
        R->pair[i][0] = tableau && l[1] != 0xff ? (int8_t)l[1] : -1;
        R->pair[i][1] = tableau && l[2] != 0xff ? (int8_t)l[2] : -1;
        R->gone[i] = l[3] != 0;
        R->ncovered[i] = 0;
        for (int j = 5; j < 7; j++)
            if (l[j] != 0xff) R->covered[i][R->ncovered[i]++] = l[j];
        if (tableau && R->pair[i][0] >= 0) {
            uint8_t *d = R->drop[R->ndrop++];
            d[0] = (uint8_t)i; d[1] = l[1]; d[2] = l[2];
            if (l[4]) {
                uint8_t *b = R->back[R->nback++];
                b[0] = (uint8_t)i; b[1] = l[1]; b[2] = l[2];
            }
        } else if (tableau && l[4]) goto bad_layout;   /* a back pile has its covers */
    }
    memcpy(R->fits, ft, sizeof R->fits);
    for (int c = 0; c < 64; c++) {
        R->nfit[c] = 0;
        for (int j = 0; j < 4 && fo[4 * c + j] != 0xff; j++) {
            if (fo[4 * c + j] >= 64 || !R->fits[c][fo[4 * c + j]]) goto bad_tables;
            R->fit_order[c][R->nfit[c]++] = fo[4 * c + j];
        }
        R->head[c] = hd[c] != 0;
    }
    for (int s = 0; s < 4; s++) {
        if (sf[2 * s] > 3 || sf[2 * s + 1] > 3 || sf[8 + s] > 3) goto bad_tables;
        R->other[s][0] = sf[2 * s]; R->other[s][1] = sf[2 * s + 1]; R->same[s] = sf[8 + s];
    }
    R->w_home = w[0]; R->w_block = w[1]; R->w_urgent = w[2]; R->w_buried = w[3]; R->w_down = w[4];
    R->w_empty = w[5]; R->w_covered = w[6]; R->w_reserve = w[7]; R->w_unsorted = w[8];
    if (total < 1 || total > 52) {
        PyErr_SetString(PyExc_ValueError, "search_core: one deck");
        return -1;
    }
    R->total = total;
    R->slot = R->np + total + 4;
    S->table_half = table_half > 0 ? (size_t)table_half : 0;       /* 0: evict at every key */
    S->frontier_size = frontier_size > 0 ? (size_t)frontier_size : 0;   /* 0: trim at every expansion */
    S->complete = 1;
    S->best_node = -1;
    mt_seed_zero(&S->rng);
    R->dead = D;
    for (int i = 0; i < np; i++) R->dead.is_back[i] = L[7 * i] == 2 && L[7 * i + 4];
    if (dead != Py_None && !in_c) { Py_INCREF(dead); S->dead = dead; }
    return 0;
bad_layout:
    PyErr_SetString(PyExc_ValueError, "search_core: a malformed layout");
    R->np = 0;
    return -1;
bad_tables:
    PyErr_SetString(PyExc_ValueError, "search_core: malformed fit_order or safe tables");
    R->np = 0;
    return -1;
}

static int not_ready(const Search *S) {
    if (S->R.np) return 0;
    PyErr_SetString(PyExc_RuntimeError, "search_core: the search was not set up (Search(...))");
    return 1;
}

static int read_position(Search *S, PyObject *obj, Pos *p) {
    if (!PyBytes_Check(obj)) { PyErr_SetString(PyExc_TypeError, "search_core: a position is bytes"); return -1; }
    const Rules *R = &S->R;
    const uint8_t *b = (const uint8_t *)PyBytes_AS_STRING(obj);
    Py_ssize_t n = PyBytes_GET_SIZE(obj), at = 0;
    int cards = 0;
    uint8_t seen[64] = {0};
    if (n > R->slot) goto bad;
    for (int i = 0; i < R->np; i++) {            /* check before decode reads it */
        if (at >= n) goto bad;
        if (i >= R->F0 && i < R->F0 + R->nf) {
            int top = b[at++];
            if (top >= 64 || (top && ((top & 15) < 1 || (top & 15) > 13))) goto bad;
            for (int r = 1; top && r <= (top & 15); r++) {
                if (seen[(top & 0x30) | r]) goto bad;
                seen[(top & 0x30) | r] = 1;
            }
            cards += top & 15;
            continue;
        }
        int size = b[at++];
        if (size > MAXH || at + size > n) goto bad;
        for (int j = 0; j < size; j++)
            if (b[at + j] >= 128 || !(b[at + j] & 15) || (b[at + j] & 15) > 13 ||
                    (i != R->stock && b[at + j] >= 64) || seen[b[at + j] & 63])
                goto bad;
            else seen[b[at + j] & 63] = 1;
        cards += size;
        at += size;
    }
    if (at + 4 != n || cards > R->total) goto bad;
    decode(R, b, p);
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "search_core: a malformed position");
    return -1;
}

/* How many moves the triples stand for (a turn run for its turns). */
static uint32_t moves_count(const Rules *R, const Plan *m, int nm) {
    uint32_t count = 0;
    for (int i = 0; i < nm; i++) count += m[i].src == R->stock ? m[i].n : 1;
    return count;
}

static int read_moves(PyObject *obj, Plan *m, int *nm) {
    if (!PyBytes_Check(obj) || PyBytes_GET_SIZE(obj) % 3 || PyBytes_GET_SIZE(obj) > 3 * MAXMOVES) {
        PyErr_SetString(PyExc_ValueError, "search_core: moves are bytes, 3 a move");
        return -1;
    }
    *nm = (int)(PyBytes_GET_SIZE(obj) / 3);
    memcpy(m, PyBytes_AS_STRING(obj), PyBytes_GET_SIZE(obj));
    return 0;
}

/* seed(position, moves): the start, reached by these moves (search.py's seed). */
static PyObject *Search_seed(Search *S, PyObject *args) {
    PyObject *position, *moves;
    if (!PyArg_ParseTuple(args, "SS", &position, &moves) || not_ready(S)) return NULL;
    Pos p;
    Plan m[MAXMOVES];
    int nm;
    if (read_position(S, position, &p) || read_moves(moves, m, &nm)) return NULL;
    Facts f;
    facts_of(&S->R, &p, &f);
    uint8_t key[KEYBUF];
    int n = key_of(&S->R, &p, key);
    if (keyset_add(&S->table, key, n, hash_bytes(key, n)) < 0) return PyErr_NoMemory();
    uint32_t depth = moves_count(&S->R, m, nm);
    int64_t node = new_node(S, NONE32, m, nm, depth);
    if (node < 0 || store(S, (uint32_t)node, &p)) return PyErr_NoMemory();
    S->order--;
    if (push(S, (Entry){score(&S->R, &p, &f) + S->depth_weight * depth, S->order, (uint32_t)node}))
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *failed(int64_t code) {
    if (code == -4) return NULL;                 /* the dead-end test's error, raised */
    if (code == -3) {
        PyErr_SetString(PyExc_RuntimeError, "search_core: more moves from one position than it holds");
        return NULL;
    }
    return PyErr_NoMemory();
}

/* run(n) -> (expanded, won node or None, depth of the last expanded): up to n expansions,
 * fewer if a win is found or the frontier runs empty. */
static PyObject *Search_run(Search *S, PyObject *args) {
    Py_ssize_t n, done = 0;
    if (!PyArg_ParseTuple(args, "n", &n) || not_ready(S)) return NULL;
    int64_t won = -1;
    uint32_t depth = 0;
    while (done < n && S->waiting && won < 0) {
        won = expand_next(S, &depth);
        done++;
        if (won < -1) return failed(won);
    }
    if (won >= 0) return Py_BuildValue("nLI", done, (long long)won, depth);
    return Py_BuildValue("nOI", done, Py_None, depth);
}

/* line(node) -> bytes: the moves from the start to the node, 3 bytes a move. */
static PyObject *Search_line(Search *S, PyObject *args) {
    long long node;
    if (!PyArg_ParseTuple(args, "L", &node)) return NULL;
    if (node < 0 || (size_t)node >= S->nnodes) { PyErr_SetString(PyExc_IndexError, "search_core: no such node"); return NULL; }
    size_t total = 0;
    for (uint32_t i = (uint32_t)node; i != NONE32; i = S->nodes[i].parent) total += 3u * S->nodes[i].nmoves;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)total);
    if (!out) return NULL;
    uint8_t *b = (uint8_t *)PyBytes_AS_STRING(out) + total;
    for (uint32_t i = (uint32_t)node; i != NONE32; i = S->nodes[i].parent) {
        size_t size = 3u * S->nodes[i].nmoves;
        b -= size;
        memcpy(b, S->moves.data + S->nodes[i].moves, size);
    }
    return out;
}

/* successors(position, came_by) -> ([(moves, child position, score)], keys asked about): the
 * position expanded
 * by a fresh search of the same rules (each key admitted once, as a new table would), to
 * compare with InterlockExpander.scored (no dead-end test). */
static PyObject *Search_successors(Search *S, PyObject *args) {
    PyObject *position, *moves;
    if (!PyArg_ParseTuple(args, "SS", &position, &moves)) return NULL;
    if (not_ready(S)) return NULL;
    Search probe;                            /* a scratch search on the same rules */
    memset(&probe, 0, sizeof probe);
    probe.R = S->R;
    probe.R.dead.on = 0;                     /* no dead-end test: InterlockExpander._settled_moves */
    probe.best_node = -1;
    probe.table_half = probe.frontier_size = (size_t)-1;     /* nothing evicted or trimmed */
    /* no depth weight and no exploring: a child's priority is its score */
    PyObject *result = NULL;
    Pos p;
    Plan m[MAXMOVES];
    int nm;
    if (read_position(&probe, position, &p) || read_moves(moves, m, &nm)) goto done;
    int64_t root = new_node(&probe, NONE32, m, nm, 0);
    if (root < 0 || store(&probe, (uint32_t)root, &p)) { PyErr_NoMemory(); goto done; }
    if (push(&probe, (Entry){0.0, -1, (uint32_t)root})) { PyErr_NoMemory(); goto done; }
    uint32_t depth;
    int64_t won = expand_next(&probe, &depth);
    if (won < -1) { failed(won); goto done; }
    result = PyList_New(0);
    for (size_t i = 1; result && i < probe.nnodes; i++) {
        Node *c = &probe.nodes[i];
        uint8_t buf[MAXP * (MAXH + 1) + 8];
        PyObject *child;
        if (c->slot == NONE32) child = (Py_INCREF(Py_None), Py_None);    /* won: every card home */
        else {
            Pos q;
            decode(&probe.R, probe.slots + (size_t)c->slot * probe.R.slot, &q);
            child = PyBytes_FromStringAndSize((char *)buf, encode(&probe.R, &q, buf));
        }
        double value = 0.0;                  /* a won child's; the others are in the heap */
        for (size_t h = 0; h < probe.nheap; h++)
            if (probe.heap[h].node == i) value = probe.heap[h].prio;
        PyObject *item = Py_BuildValue("y#Nd", probe.moves.data + c->moves, (Py_ssize_t)3 * c->nmoves, child, value);
        if (!item || PyList_Append(result, item)) Py_CLEAR(result);
        Py_XDECREF(item);
    }
done:
    if (result) {                            /* with the keys asked about, admitted or not */
        PyObject *pair = Py_BuildValue("NL", result, probe.generated);
        result = pair;
    }
    free_all(&probe);
    return result;
}

/* dead(position) -> bool: the dead-end test in C, with this search's memory of the
 * positions asked before (as DeadEnds.is_dead keeps it). */
static PyObject *Search_dead(Search *S, PyObject *args) {
    PyObject *position;
    if (!PyArg_ParseTuple(args, "S", &position) || not_ready(S)) return NULL;
    if (!S->R.dead.on) { PyErr_SetString(PyExc_RuntimeError, "search_core: no dead-end test in C here"); return NULL; }
    Pos p;
    if (read_position(S, position, &p)) return NULL;
    return PyBool_FromLong(dead_end(&S->R, &S->dead_state, &p));
}

/* key(position) -> bytes: the key the search's table holds. */
static PyObject *Search_key(Search *S, PyObject *args) {
    PyObject *position;
    if (!PyArg_ParseTuple(args, "S", &position) || not_ready(S)) return NULL;
    Pos p;
    if (read_position(S, position, &p)) return NULL;
    uint8_t key[KEYBUF];
    return PyBytes_FromStringAndSize((char *)key, key_of(&S->R, &p, key));
}

/* release(): give back the frontier's, tables' and positions' memory (the nodes stay:
 * the lines to them are still asked for). */
static PyObject *Search_release(Search *S, PyObject *unused) {
    free_frontier_and_tables(S);
    for (size_t i = 0; i < S->nnodes; i++) S->nodes[i].slot = NONE32;
    Py_RETURN_NONE;
}

static PyObject *Search_get_waiting(Search *S, void *c) { return PyLong_FromSize_t(S->waiting); }
static PyObject *Search_get_generated(Search *S, void *c) { return PyLong_FromLongLong(S->generated); }
static PyObject *Search_get_complete(Search *S, void *c) { return PyBool_FromLong(S->complete); }
static PyObject *Search_get_best_score(Search *S, void *c) {
    if (S->best_node < 0) Py_RETURN_NONE;
    return PyFloat_FromDouble(S->best_score);
}
static PyObject *Search_get_best_node(Search *S, void *c) {
    if (S->best_node < 0) Py_RETURN_NONE;
    return PyLong_FromLongLong(S->best_node);
}

static PyMethodDef Search_methods[] = {
    {"seed", (PyCFunction)Search_seed, METH_VARARGS, "seed(position, moves): the start position."},
    {"run", (PyCFunction)Search_run, METH_VARARGS, "run(n) -> (expanded, won node or None, last depth)."},
    {"line", (PyCFunction)Search_line, METH_VARARGS, "line(node) -> the moves to it, 3 bytes each."},
    {"successors", (PyCFunction)Search_successors, METH_VARARGS, "successors(position, came_by) -> ([(moves, child, score)], keys asked about)."},
    {"key", (PyCFunction)Search_key, METH_VARARGS, "key(position) -> the table's key."},
    {"dead", (PyCFunction)Search_dead, METH_VARARGS, "dead(position) -> is it a dead end (in C)?"},
    {"release", (PyCFunction)Search_release, METH_NOARGS, "release(): free the frontier and tables."},
    {NULL}
};

static PyGetSetDef Search_getset[] = {
    {"waiting", (getter)Search_get_waiting, NULL, "positions in the frontier", NULL},
    {"generated", (getter)Search_get_generated, NULL, "successors asked about", NULL},
    {"complete", (getter)Search_get_complete, NULL, "False once the frontier was trimmed", NULL},
    {"best_score", (getter)Search_get_best_score, NULL, "the best score generated, or None", NULL},
    {"best_node", (getter)Search_get_best_node, NULL, "the node of the best score, or None", NULL},
    {NULL}
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "solwidget.games.interlock.search_core.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One best-first search of Interlock (see the module's source).",
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

/* set_order(items) -> bytes: the items (distinct cards) in the order CPython iterates
 * set(items), as set_order replays it: native.py checks it against the running Python. */
static PyObject *core_set_order(PyObject *self, PyObject *args) {
    PyObject *items;
    if (!PyArg_ParseTuple(args, "S", &items)) return NULL;
    Py_ssize_t n = PyBytes_GET_SIZE(items);
    const uint8_t *b = (const uint8_t *)PyBytes_AS_STRING(items);
    uint8_t seen[64] = {0}, out[64];
    if (n > 52) goto bad;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!b[i] || b[i] >= 64 || seen[b[i]]) goto bad;
        seen[b[i]] = 1;
    }
    int m = set_order(b, (int)n, out);
    if (m < 0) goto bad;
    return PyBytes_FromStringAndSize((char *)out, m);
bad:
    PyErr_SetString(PyExc_ValueError, "search_core: set_order takes at most 52 distinct cards 1..63");
    return NULL;
}

static PyMethodDef core_methods[] = {
    {"set_order", core_set_order, METH_VARARGS, "set_order(items): set(items)'s order, replayed."},
    {"random", core_random, METH_VARARGS, "random(n): Random(0)'s random() and randrange(k), k = 1..n."},
    {NULL}
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "search_core",
    "Interlock's search, compiled (see native.py).", -1, core_methods
};

PyMODINIT_FUNC PyInit_search_core(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "MAX_PILES", MAXP) < 0) { Py_DECREF(m); return NULL; }
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType); Py_DECREF(m);
        return NULL;
    }
    return m;
}
