/* The FreeCell family's search, compiled: solver/search.py's best-first search with
 * CellsExpander's successors (expander.py), score (score.py) and key, in C.
 *
 * It is a second writing of what those Python files say, not a source of rules: every
 * table it plays by (which card goes on which, how many cards a supermove carries, which
 * cards go home safely, the score's weights) is handed to it by native.py, which reads
 * them from the game, and it expands the same positions in the same order as the Python
 * search: the same successors, keys and scores, the same frontier (a heap, and with
 * ``explore`` the same random kinds drawn from the same Mersenne Twister as Python's
 * random.Random(0)), the same transposition tables, evictions and trims.
 * tests/test_native.py compares the two successor by successor and search by search; the
 * solver replays every win through State.play.
 *
 * A position is kept as bytes: for each pile in the game's order, a foundation as its top
 * card (0 when empty), any other pile as its length and its cards. A key is the cells and
 * tableau piles in a canonical order (empty first, then by bottom card: with one deck no
 * two non-empty piles share one), so two keys are equal exactly when CellsKey's are
 * (the same tableau piles and the same cells, each taken as a set).
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
#define MAXH 64          /* cards in one pile: one deck holds 52 */
#define MAXPLANS 4096
#define MAXFOUND 2048
#define MAXSETTLE 64
#define NONE32 0xFFFFFFFFu
#define KEYBUF (MAXP + MAXH + 8)   /* a key, and the zeros its hash reads past its end */

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

/* ------------------------------------------------------------------ the rules' tables */

typedef struct {
    int np, nf, nc, nt;               /* piles, and how many of each kind */
    int F0, C0, T0;                   /* first index of each kind (each kind is a run) */
    uint8_t kind[MAXP];               /* 0 foundation, 1 cell, 2 tableau */
    uint8_t fits[64][64];             /* fits[under][over]: over may be built on under */
    uint8_t hosts[64][64];            /* hosts[card]: the cards it may go on, ascending */
    uint8_t nhosts[64];
    uint8_t supermove[MAXP + 1][MAXP + 1];   /* [free cells][empty piles], at most 255 */
    int step, start_rank, last_rank;
    uint8_t safe_suits[64], safe_rank[64];   /* autoplay: card is safe once these are home */
    double w_home, w_block, w_urgent, w_buried, w_unsorted, w_cells, w_empty;
    int total;                        /* cards in the game */
    int slot;                         /* bytes of an encoded position, at most */
} Rules;

typedef struct {
    uint8_t len[MAXP];
    uint8_t c[MAXP][MAXH];
} Pos;

/* What the foundations of a position imply (SearchMoves.facts_of). */
typedef struct {
    int8_t home[64];                  /* card -> the foundation it goes to first, or -1 */
    uint8_t safe[64];                 /* cards that go home safely */
    int8_t need[64];                  /* heuristics.need_tables */
    int home_pile[4], first_empty, cards_home;
} Facts;

static void decode(const Rules *R, const uint8_t *b, Pos *p) {
    for (int i = 0; i < R->np; i++) {
        if (R->kind[i] == 0) {
            p->len[i] = *b ? 1 : 0;
            p->c[i][0] = *b++;
        } else {
            int n = p->len[i] = *b++;
            memcpy(p->c[i], b, n);
            b += n;
        }
    }
}

static int encode(const Rules *R, const Pos *p, uint8_t *b) {
    uint8_t *start = b;
    for (int i = 0; i < R->np; i++) {
        int n = p->len[i];
        if (R->kind[i] == 0) {
            *b++ = n ? p->c[i][n - 1] : 0;
        } else {
            *b++ = (uint8_t)n;
            memcpy(b, p->c[i], n);
            b += n;
        }
    }
    return (int)(b - start);
}

/* A foundation keeps only its top card here: moving a card home replaces it. */
static inline void move_cards(const Rules *R, Pos *p, int src, int dst, int n) {
    int s = p->len[src] - n;
    if (R->kind[dst] == 0) {
        p->c[dst][0] = p->c[src][s];
        p->len[dst] = 1;
    } else {
        memcpy(p->c[dst] + p->len[dst], p->c[src] + s, n);
        p->len[dst] += n;
    }
    p->len[src] = s;
}

/* The cards on a foundation with this top card (0: empty): one deck, built by one. */
static int foundation_count(const Rules *R, uint8_t top) {
    if (!top) return 0;
    return R->step > 0 ? (top & 15) - R->start_rank + 1 : R->start_rank - (top & 15) + 1;
}

static void facts_of(const Rules *R, const Pos *p, Facts *f) {
    int level[4];
    for (int s = 0; s < 4; s++) { level[s] = R->step > 0 ? 0 : 14; f->home_pile[s] = -1; }
    memset(f->home, -1, sizeof f->home);
    memset(f->safe, 0, sizeof f->safe);
    f->first_empty = -1;
    f->cards_home = 0;
    for (int i = R->F0; i < R->F0 + R->nf; i++) {
        if (!p->len[i]) {
            if (f->first_empty < 0) f->first_empty = i;
            continue;
        }
        uint8_t top = p->c[i][0];
        int suit = top >> 4 & 3;
        level[suit] = top & 15;
        f->home_pile[suit] = i;
        f->cards_home += foundation_count(R, top);
        if ((top & 15) != R->last_rank && f->home[top + R->step] < 0) f->home[top + R->step] = (int8_t)i;
    }
    if (f->first_empty >= 0)
        for (int s = 0; s < 4; s++) f->home[s << 4 | R->start_rank] = (int8_t)f->first_empty;
    for (int s = 0; s < 4; s++) {            /* safe: the next card of a suit, its guests home */
        int r = level[s] + R->step;
        if (r < 1 || r > 13) continue;
        int card = s << 4 | r, ok = 1;
        for (int t = 0; t < 4; t++)
            if (R->safe_suits[card] >> t & 1)
                ok &= R->step > 0 ? level[t] >= R->safe_rank[card] : level[t] <= R->safe_rank[card];
        f->safe[card] = (uint8_t)ok;
    }
    memset(f->need, 0, sizeof f->need);      /* need_tables, one deck */
    for (int s = 0; s < 4; s++) {
        int lv = R->step > 0 ? level[s] : (f->home_pile[s] < 0 ? 0 : 14 - level[s]);
        for (int r = 1; r <= 13; r++) f->need[s << 4 | r] = (int8_t)(R->step > 0 ? r - lv : 14 - r - lv);
    }
}

static double pile_value(const Rules *R, const uint8_t *pile, int size, const int8_t *need) {
    int blockers = 0, depth = 0, lowest = 99, deepest = size;
    for (int j = 0; j < size; j++) {
        int n = need[pile[j]];
        if (n > lowest) blockers++;
        else { lowest = n; deepest = j; }
        if (n == 1) depth += size - 1 - j;
    }
    double value = R->w_block * blockers + R->w_urgent * depth + R->w_buried * (size - 1 - deepest);
    if (R->w_unsorted != 0.0) {
        int run = size - 1;
        while (run > 0 && R->fits[pile[run - 1]][pile[run]]) run--;
        value += R->w_unsorted * run;
    }
    return value;
}

static double room(const Rules *R, int filled, int empty) {
    return R->w_cells * filled * (filled + 1) / 2 - R->w_empty * empty;
}

static double score(const Rules *R, const Pos *p, const Facts *f) {
    if (f->cards_home == R->total) return 0.0;
    double value = R->w_home * (R->total - f->cards_home);
    int empty = 0, filled = 0;
    for (int t = R->T0; t < R->T0 + R->nt; t++) {
        if (p->len[t]) value += pile_value(R, p->c[t], p->len[t], f->need);
        else empty++;
    }
    for (int c = R->C0; c < R->C0 + R->nc; c++) filled += p->len[c] > 0;
    value += room(R, filled, empty);
    return value > 0.5 ? value : 0.5;
}

static int key_of(const Rules *R, const Pos *p, uint8_t *k) {
    int order[MAXP], n = 0;
    uint8_t *start = k;
    for (int t = R->T0; t < R->T0 + R->nt; t++) {        /* insertion sort: a few piles */
        int j = n++;
        int kt = p->len[t] ? p->c[t][0] : 0;
        while (j > 0) {
            int u = order[j - 1], ku = p->len[u] ? p->c[u][0] : 0;
            if (ku <= kt) break;
            order[j] = u; j--;
        }
        order[j] = t;
    }
    for (int i = 0; i < n; i++) {
        int t = order[i], m = p->len[t];
        *k++ = (uint8_t)m;
        memcpy(k, p->c[t], m);
        k += m;
    }
    uint8_t cells[MAXP];
    int m = 0;
    for (int c = R->C0; c < R->C0 + R->nc; c++) {
        int v = p->len[c] ? p->c[c][0] : 0, j = m++;
        while (j > 0 && cells[j - 1] > v) { cells[j] = cells[j - 1]; j--; }
        cells[j] = (uint8_t)v;
    }
    memcpy(k, cells, m);
    memset(k + m, 0, 8);
    return (int)(k + m - start);
}

/* The moves of CellsMoves.plans(piles, every=False), in its order. */
typedef struct { uint8_t src, dst, n; } Plan;

static int cmp_pair(const void *a, const void *b) {
    const uint8_t *x = a, *y = b;
    return x[0] != y[0] ? x[0] - y[0] : x[1] - y[1];
}

/* At most MAXPLANS moves, else -1 (no game of one deck comes near). After the runs' moves
 * come at most MAXP * (MAXP + 1) from the cells and MAXP to a free cell. */
static int plans_of(const Rules *R, const Pos *p, const Facts *f, Plan *out) {
    int np = 0, topped_by[64], empties[MAXP], ne = 0, givers[MAXP], ng = 0;
    int held[MAXP], nh = 0, free_cells[MAXP], nfree = 0;
    for (int i = 0; i < 64; i++) topped_by[i] = -1;
    for (int t = R->T0; t < R->T0 + R->nt; t++) {
        int n = p->len[t];
        if (n) {
            int card = p->c[t][n - 1];
            topped_by[card] = t;
            givers[ng++] = t;
            if (f->home[card] >= 0) out[np++] = (Plan){(uint8_t)t, (uint8_t)f->home[card], 1};
        } else empties[ne++] = t;
    }
    for (int c = R->C0; c < R->C0 + R->nc; c++) {
        if (p->len[c]) {
            int card = p->c[c][0];
            held[nh++] = c;
            if (f->home[card] >= 0) out[np++] = (Plan){(uint8_t)c, (uint8_t)f->home[card], 1};
        } else free_cells[nfree++] = c;
    }
    int limit = R->supermove[nfree][ne], limit_to_empty = R->supermove[nfree][ne ? ne - 1 : 0];
    for (int g = 0; g < ng; g++) {
        int src = givers[g], size = p->len[src];
        const uint8_t *pile = p->c[src];
        int run = 1;
        while (run < size && R->fits[pile[size - run - 1]][pile[size - run]]) run++;
        uint8_t found[MAXFOUND][2];
        int nf = 0, upto = run < limit ? run : limit;
        for (int n = 1; n <= upto; n++) {
            int card = pile[size - n];
            if (nf + R->nhosts[card] + MAXH > MAXFOUND) return -1;
            for (int h = 0; h < R->nhosts[card]; h++) {
                int dst = topped_by[R->hosts[card][h]];
                if (dst >= 0) { found[nf][0] = (uint8_t)dst; found[nf][1] = (uint8_t)n; nf++; }
            }
        }
        if (ne) {
            int most = run < limit_to_empty ? run : limit_to_empty;
            if (size - 1 < most) most = size - 1;
            for (int n = 1; n <= most; n++) { found[nf][0] = (uint8_t)empties[0]; found[nf][1] = (uint8_t)n; nf++; }
        }
        if (nf > 1) qsort(found, nf, 2, cmp_pair);
        if (np + nf + MAXP * (MAXP + 3) > MAXPLANS) return -1;   /* room for the moves below */
        for (int i = 0; i < nf; i++) out[np++] = (Plan){(uint8_t)src, found[i][0], found[i][1]};
    }
    for (int h = 0; h < nh; h++) {
        int c = held[h], card = p->c[c][0];
        int fitting[MAXP + 1], nfit = 0;
        for (int i = 0; i < R->nhosts[card]; i++) {
            int dst = topped_by[R->hosts[card][i]];
            if (dst >= 0) fitting[nfit++] = dst;
        }
        if (ne) fitting[nfit++] = empties[0];
        for (int i = 1; i < nfit; i++)                  /* insertion sort */
            for (int j = i; j > 0 && fitting[j - 1] > fitting[j]; j--) {
                int x = fitting[j]; fitting[j] = fitting[j - 1]; fitting[j - 1] = x;
            }
        for (int i = 0; i < nfit; i++) out[np++] = (Plan){(uint8_t)c, (uint8_t)fitting[i], 1};
    }
    if (nfree)
        for (int g = 0; g < ng; g++) out[np++] = (Plan){(uint8_t)givers[g], (uint8_t)free_cells[0], 1};
    return np;
}

/* Puts back the card that move_cards sent home from ``src`` to foundation ``f``. */
static inline void unplay_home(const Rules *R, Pos *p, int src, int f) {
    uint8_t card = p->c[f][0];
    p->c[src][p->len[src]++] = card;
    if ((card & 15) == R->start_rank) p->len[f] = 0;
    else p->c[f][0] = (uint8_t)(card - R->step);
}

/* CellsExpander._settle: the safe moves home, the tableau then the cells, until none. */
static int settle(const Rules *R, Pos *p, Facts *f, Plan *played) {
    int n = 0;
    for (;;) {
        facts_of(R, p, f);
        int moved = 0;
        for (int k = 0; k < R->nt + R->nc && !moved; k++) {
            int src = k < R->nt ? R->T0 + k : R->C0 + k - R->nt, len = p->len[src];
            if (!len) continue;
            int card = p->c[src][len - 1];
            if (!f->safe[card]) continue;
            int suit = card >> 4 & 3, dst = f->home_pile[suit] < 0 ? f->first_empty : f->home_pile[suit];
            played[n++] = (Plan){(uint8_t)src, (uint8_t)dst, 1};
            move_cards(R, p, src, dst, 1);
            moved = 1;
        }
        if (!moved) return n;
    }
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
typedef struct { uint32_t parent, moves, depth, slot; uint8_t nmoves; } Node;
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
    Bytes moves;                        /* 3 bytes a move: source, destination, cards */
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
} Search;

static int64_t new_node(Search *S, uint32_t parent, const Plan *m, int nm, uint32_t depth) {
    if (grow((void **)&S->nodes, &S->cnodes, S->nnodes + 1, sizeof(Node))) return -1;
    if (bytes_reserve(&S->moves, 3 * (size_t)nm) || S->moves.size + 3 * (size_t)nm > NONE32) return -1;
    Node *n = &S->nodes[S->nnodes];
    n->parent = parent; n->moves = (uint32_t)S->moves.size; n->nmoves = (uint8_t)nm;
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

/* _Search.expand_next with CellsExpander.scored: the won node, -1 if none, -2 out of
 * memory, -3 more moves than MAXPLANS. */
static int64_t expand_next(Search *S, uint32_t *depth_out) {
    const Rules *R = &S->R;
    Entry e;
    if (pop(S, &e)) return -2;
    Node node = S->nodes[e.node];
    Pos p;
    decode(R, S->slots + (size_t)node.slot * R->slot, &p);
    if (release_slot(S, e.node)) return -2;
    *depth_out = node.depth;
    Facts f;
    facts_of(R, &p, &f);
    int undo_src = -1, undo_dst = -1, undo_n = -1;
    if (node.nmoves == 1) {
        const uint8_t *m = S->moves.data + node.moves;
        undo_src = m[1]; undo_dst = m[0]; undo_n = m[2];
    }
    double part[MAXP] = {0}, core = R->w_home * (R->total - f.cards_home);
    int filled = 0, empty = 0;
    for (int t = R->T0; t < R->T0 + R->nt; t++) {
        if (p.len[t]) { part[t] = pile_value(R, p.c[t], p.len[t], f.need); core += part[t]; }
        else empty++;
    }
    for (int c = R->C0; c < R->C0 + R->nc; c++) filled += p.len[c] > 0;
    Plan plans[MAXPLANS], played[MAXSETTLE + 1];
    int np = plans_of(R, &p, &f, plans);
    if (np < 0) return -3;
    uint8_t key[KEYBUF];
    int64_t won = -1;
    for (int i = 0; i < np && won < 0; i++) {
        Plan m = plans[i];
        if (m.src == undo_src && m.dst == undo_dst && m.n == undo_n) continue;
        int src = m.src, dst = m.dst, n = m.n, rest = p.len[src] - n;
        int to_foundation = R->kind[dst] == 0;
        if (to_foundation || (rest && f.safe[p.c[src][rest - 1]])) {
            Facts g;                                 /* settled here, then put back */
            move_cards(R, &p, src, dst, n);
            played[0] = m;
            int nm = 1 + settle(R, &p, &g, played + 1);
            int ok = admit(S, key, key_of(R, &p, key));
            if (ok > 0)
                ok = push_child(S, e.node, played, nm, node.depth + nm, &p, score(R, &p, &g), &won) ? -1 : 1;
            for (int j = nm - 1; j >= 1; j--) unplay_home(R, &p, played[j].src, played[j].dst);
            if (to_foundation) unplay_home(R, &p, src, dst);
            else move_cards(R, &p, dst, src, n);
            if (ok < 0) return -2;
            continue;
        }
        int was_empty = p.len[dst] == 0;
        move_cards(R, &p, src, dst, n);
        int ok = admit(S, key, key_of(R, &p, key));
        if (ok > 0) {
            double value = core - part[src] - part[dst];
            int cells = filled, empties = empty;
            if (R->kind[src] == 2) {
                value += rest ? pile_value(R, p.c[src], rest, f.need) : 0.0;
                if (!rest) empties++;
            } else cells--;
            if (R->kind[dst] == 2) {
                value += pile_value(R, p.c[dst], p.len[dst], f.need);
                if (was_empty) empties--;
            } else cells++;
            value += room(R, cells, empties);
            ok = push_child(S, e.node, &m, 1, node.depth + 1, &p, value > 0.5 ? value : 0.5, &won);
        }
        move_cards(R, &p, dst, src, n);             /* back to the parent */
        if (ok < 0) return -2;
    }
    if (won >= 0) return won;
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

/* Search(kinds, fits, supermove, safe, step, start_rank, total, weights, depth_weight, explore,
 *        table_half, frontier_size): kinds has a byte a pile (0 foundation, 1 cell,
 *        2 tableau, each kind in one run); fits 64x64 bytes; supermove (cells+1)x(piles+1)
 *        bytes; safe 128 bytes (a card's suits mask, then its rank); weights the 7 of
 *        score.py (home, blockers, urgent, buried, unsorted, cells, empty). */
static int Search_init(Search *S, PyObject *args, PyObject *kw) {
    PyObject *kinds, *fits, *supermove, *safe;
    int step, start_rank, total;
    double w[7];
    double depth_weight, explore;
    Py_ssize_t table_half, frontier_size;
    if (!PyArg_ParseTuple(args, "SSSSiii(ddddddd)ddnn", &kinds, &fits, &supermove, &safe, &step,
                          &start_rank, &total, &w[0], &w[1], &w[2], &w[3], &w[4], &w[5], &w[6],
                          &depth_weight, &explore, &table_half, &frontier_size))
        return -1;
    free_all(S);                                  /* a search set up again starts afresh */
    memset((char *)S + sizeof(PyObject), 0, sizeof(Search) - sizeof(PyObject));
    S->depth_weight = depth_weight;
    S->explore = explore;
    Rules *R = &S->R;
    R->np = (int)PyBytes_GET_SIZE(kinds);
    if (R->np < 1 || R->np > MAXP) { PyErr_SetString(PyExc_ValueError, "search_core: 1 to 32 piles"); return -1; }
    const uint8_t *k, *ft, *sm, *sf;
    if (read_bytes(kinds, "kinds", R->np, &k) || read_bytes(fits, "fits", 64 * 64, &ft)) return -1;
    int first[3] = {-1, -1, -1}, count[3] = {0};
    for (int i = 0; i < R->np; i++) {
        if (k[i] > 2 || (count[k[i]] && first[k[i]] + count[k[i]] != i)) {
            PyErr_SetString(PyExc_ValueError, "search_core: each kind of pile must be one run");
            return -1;
        }
        if (!count[k[i]]) first[k[i]] = i;
        count[k[i]]++;
        R->kind[i] = k[i];
    }
    R->nf = count[0]; R->nc = count[1]; R->nt = count[2];
    R->F0 = first[0]; R->C0 = first[1]; R->T0 = first[2];
    if (!R->nf || !R->nt) { PyErr_SetString(PyExc_ValueError, "search_core: foundations and tableau needed"); return -1; }
    if (read_bytes(supermove, "supermove", (Py_ssize_t)(R->nc + 1) * (R->nt + 1), &sm) ||
        read_bytes(safe, "safe", 128, &sf))
        return -1;
    memcpy(R->fits, ft, sizeof R->fits);
    for (int card = 0; card < 64; card++)
        for (int under = 0; under < 64; under++)
            if (R->fits[under][card]) R->hosts[card][R->nhosts[card]++] = (uint8_t)under;
    for (int c = 0; c <= R->nc; c++)
        for (int e = 0; e <= R->nt; e++) R->supermove[c][e] = sm[c * (R->nt + 1) + e];
    memcpy(R->safe_suits, sf, 64); memcpy(R->safe_rank, sf + 64, 64);
    R->step = step; R->start_rank = start_rank; R->last_rank = step > 0 ? 13 : 1;
    R->w_home = w[0]; R->w_block = w[1]; R->w_urgent = w[2]; R->w_buried = w[3];
    R->w_unsorted = w[4]; R->w_cells = w[5]; R->w_empty = w[6];
    if (total < 1 || total > 52 || (step != 1 && step != -1) || start_rank < 1 || start_rank > 13) {
        PyErr_SetString(PyExc_ValueError, "search_core: one deck, foundations building by one");
        return -1;
    }
    R->total = total;
    R->slot = R->np + total;
    S->table_half = table_half > 0 ? (size_t)table_half : 0;       /* 0: evict at every key */
    S->frontier_size = frontier_size > 0 ? (size_t)frontier_size : 0;   /* 0: trim at every expansion */
    S->complete = 1;
    S->best_node = -1;
    mt_seed_zero(&S->rng);
    return 0;
}

static int not_ready(const Search *S) {
    if (S->R.np) return 0;
    PyErr_SetString(PyExc_RuntimeError, "search_core: the search was not set up (Search(...))");
    return 1;
}

static int read_position(Search *S, PyObject *obj, Pos *p) {
    if (!PyBytes_Check(obj)) { PyErr_SetString(PyExc_TypeError, "search_core: a position is bytes"); return -1; }
    const uint8_t *b = (const uint8_t *)PyBytes_AS_STRING(obj);
    Py_ssize_t n = PyBytes_GET_SIZE(obj), at = 0;
    if (n > S->R.slot) goto bad;
    for (int i = 0; i < S->R.np; i++) {            /* check before decode reads it */
        if (at >= n) goto bad;
        int size = S->R.kind[i] == 0 ? 0 : b[at++];
        if (S->R.kind[i] == 0 && b[at++] >= 64) goto bad;
        if (size > MAXH || (S->R.kind[i] == 1 && size > 1) || at + size > n) goto bad;
        for (int j = 0; j < size; j++)
            if (b[at + j] >= 64) goto bad;
        at += size;
    }
    if (at != n) goto bad;
    decode(&S->R, b, p);
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "search_core: a malformed position");
    return -1;
}

static int read_moves(PyObject *obj, Plan *m, int *nm) {
    if (!PyBytes_Check(obj) || PyBytes_GET_SIZE(obj) % 3 || PyBytes_GET_SIZE(obj) > 3 * MAXSETTLE) {
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
    Plan m[MAXSETTLE];
    int nm;
    if (read_position(S, position, &p) || read_moves(moves, m, &nm)) return NULL;
    Facts f;
    facts_of(&S->R, &p, &f);
    uint8_t key[KEYBUF];
    int n = key_of(&S->R, &p, key);
    if (keyset_add(&S->table, key, n, hash_bytes(key, n)) < 0) return PyErr_NoMemory();
    int64_t node = new_node(S, NONE32, m, nm, (uint32_t)nm);
    if (node < 0 || store(S, (uint32_t)node, &p)) return PyErr_NoMemory();
    S->order--;
    if (push(S, (Entry){score(&S->R, &p, &f) + S->depth_weight * nm, S->order, (uint32_t)node}))
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *failed(int64_t code) {
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

/* successors(position, came_by) -> [(moves, child position, score)]: the position expanded
 * by a fresh search of the same rules (each key admitted once, as a new table would), to
 * compare with CellsExpander.scored. */
static PyObject *Search_successors(Search *S, PyObject *args) {
    PyObject *position, *moves;
    if (!PyArg_ParseTuple(args, "SS", &position, &moves)) return NULL;
    if (not_ready(S)) return NULL;
    Search probe;                            /* a scratch search on the same rules */
    memset(&probe, 0, sizeof probe);
    probe.R = S->R;
    probe.best_node = -1;
    probe.table_half = probe.frontier_size = (size_t)-1;     /* nothing evicted or trimmed */
    /* no depth weight and no exploring: a child's priority is its score */
    PyObject *result = NULL;
    Pos p;
    Plan m[MAXSETTLE];
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
        uint8_t buf[MAXP + MAXH];
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
    free_all(&probe);
    return result;
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
    {"successors", (PyCFunction)Search_successors, METH_VARARGS, "successors(position, came_by) -> [(moves, child, score)]."},
    {"key", (PyCFunction)Search_key, METH_VARARGS, "key(position) -> the table's key."},
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
    .tp_name = "solwidget.games.freecell.search_core.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One best-first search of the FreeCell family (see the module's source).",
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
    "The FreeCell family's search, compiled (see native.py).", -1, core_methods
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
