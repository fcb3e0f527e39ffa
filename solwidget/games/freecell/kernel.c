/* The FreeCell family's kernel: CellsExpander's successors (expander.py), score (score.py)
 * and key, in C, for the compiled search (solver/search_core.c, kernel.h's table). The loop
 * itself (frontier, tables, nodes, exploring) is solver/loop.h's, shared by the families.
 *
 * It is a second writing of what those Python files say, not a source of rules: every
 * table it plays by (which card goes on which, how many cards a supermove carries, which
 * cards go home safely, the score's weights) is packed by native.py's ``pack_rules``
 * from the game, and it expands the same positions in the same order as the Python
 * search: the same successors, keys and scores, the same frontier (a heap, and with
 * ``explore`` the same random kinds drawn from the same Mersenne Twister as Python's
 * random.Random(0)), the same transposition tables, evictions and trims.
 * tests/test_kernels.py and tests/test_native.py compare the two successor by successor and search by search; the
 * solver replays every win through State.play.
 *
 * A position is kept as bytes: for each pile in the game's order, a foundation as its top
 * card (0 when empty), any other pile as its length and its cards. A key is the cells and
 * tableau piles in a canonical order (empty first, then by bottom card: with one deck no
 * two non-empty piles share one), so two keys are equal exactly when CellsKey's are
 * (the same tableau piles and the same cells, each taken as a set).
 *
 * Scores are sums of counts times weights. native.py uses this core only when every weight
 * is a multiple of 1/1024 below 2^20: then every partial sum is exact in a double, so any
 * order of adding gives the Python score to the last bit. A priority adds the depth weight
 * times the depth to it as search.py does, in the same two rounded steps (loop.h's
 * loop_priority), so the depth weight may be any double. */

#include "../../solver/kernel.h"

#define MAXP 32          /* piles */
#define MAXH 64          /* cards in one pile: one deck holds 52 */
#define MAXPLANS 4096
#define MAXFOUND 2048
#define MAXSETTLE 64
#define SAFE_WAYS 2      /* the ways a card goes home safely: native.py packs that many */
#define ROW (MAXH + CHUNK)   /* a pile's room in a Pos, copy_cards's overrun included */
#define KEYBUF (MAXP + MAXH + CHUNK + 8)   /* a key, copy_cards's overrun, the zeros its hash reads */

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
    uint8_t safe[64][SAFE_WAYS][4];   /* expander.safe_needs: a way's cards home, by suit */
    double w_home, w_block, w_urgent, w_buried, w_unsorted, w_cells, w_empty;
    int total;                        /* cards in the game */
    int slot;                         /* bytes of an encoded position, at most */
} Rules;

typedef struct {
    uint8_t len[MAXP];
    uint8_t c[MAXP][ROW];
} Pos;

/* What the foundations of a position imply (SearchMoves.facts_of). */
typedef struct {
    int8_t home[64];                  /* card -> the foundation it goes to first, or -1 */
    uint8_t safe[64];                 /* cards that go home safely */
    int8_t need[64];                  /* heuristics.need_tables */
    int home_pile[4], first_empty, cards_home;
} Facts;

/* The slot ``b`` (R->slot bytes) decoded: a pile's cards are copied by copy_cards where what
 * it reads past them is still in the slot, the rest by memcpy. */
static void decode(const Rules *R, const uint8_t *b, Pos *p) {
    const uint8_t *room = b + R->slot - (CHUNK - 1);
    for (int i = 0; i < R->np; i++) {
        if (R->kind[i] == 0) {
            p->len[i] = *b ? 1 : 0;
            p->c[i][0] = *b++;
        } else {
            int n = p->len[i] = *b++;
            if (b + n <= room) copy_cards(p->c[i], b, n);
            else memcpy(p->c[i], b, n);
            b += n;
        }
    }
}

/* ``p`` encoded in ``b``, a slot of R->slot bytes: its length. A pile's cards are copied
 * by copy_cards where its overrun stays in the slot, the rest by memcpy. */
static int encode(const Rules *R, const Pos *p, uint8_t *b) {
    uint8_t *start = b, *room = b + R->slot - (CHUNK - 1);
    for (int i = 0; i < R->np; i++) {
        int n = p->len[i];
        if (R->kind[i] == 0) {
            *b++ = n ? p->c[i][n - 1] : 0;
        } else {
            *b++ = (uint8_t)n;
            if (b + n <= room) copy_cards(b, p->c[i], n);
            else memcpy(b, p->c[i], n);
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
        copy_cards(p->c[dst] + p->len[dst], p->c[src] + s, n);
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
    int level[4], home[4];
    for (int s = 0; s < 4; s++) { level[s] = R->step > 0 ? 0 : 14; home[s] = 0; f->home_pile[s] = -1; }
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
        home[suit] = foundation_count(R, top);
        f->cards_home += home[suit];
        if ((top & 15) != R->last_rank && f->home[top + R->step] < 0) f->home[top + R->step] = (int8_t)i;
    }
    if (f->first_empty >= 0)
        for (int s = 0; s < 4; s++) f->home[s << 4 | R->start_rank] = (int8_t)f->first_empty;
    for (int s = 0; s < 4; s++) {            /* safe: the next card of a suit, a way of it met */
        int r = level[s] + R->step;
        if (r < 1 || r > 13) continue;
        int card = s << 4 | r, ok = 0;
        for (int w = 0; w < SAFE_WAYS && !ok; w++) {
            const uint8_t *need = R->safe[card][w];
            ok = home[0] >= need[0] && home[1] >= need[1] && home[2] >= need[2] && home[3] >= need[3];
        }
        f->safe[card] = (uint8_t)ok;
    }
    memset(f->need, 0, sizeof f->need);      /* need_tables, one deck */
    for (int s = 0; s < 4; s++) {
        int lv = R->step > 0 ? level[s] : (f->home_pile[s] < 0 ? 0 : 14 - level[s]);
        for (int r = 1; r <= 13; r++) f->need[s << 4 | r] = (int8_t)(R->step > 0 ? r - lv : 14 - r - lv);
    }
}

/* score.py's pile_value read a card at a time, bottom up: what the cards 0..j of a pile
 * count so far. A child's tableau pile is its parent's with top cards taken off (a prefix,
 * whose tally the parent's expansion kept) or with cards put on (the tally carried on over
 * them), so that a child's score reads only the cards moved. */
typedef struct { int blockers, lowest, deepest, urgent, urgent_at, sorted_from; } Tally;

static const Tally NO_CARDS = {0, 99, 0, 0, 0, 0};

static inline void tally_card(const Rules *R, Tally *t, const uint8_t *pile, int j, const int8_t *need) {
    int n = need[pile[j]];
    if (n > t->lowest) t->blockers++;                 /* above a card needed sooner */
    else { t->lowest = n; t->deepest = j; }
    if (n == 1) { t->urgent++; t->urgent_at += j; }   /* needed next */
    if (!j || !R->fits[pile[j - 1]][pile[j]]) t->sorted_from = j;
}

/* The value of a pile of ``size`` cards, tallied: its blockers, how deep its urgent cards and
 * its lowest need lie (the urgent cards' depths summed: size - 1 - j each), and the cards
 * under its top's ordered run. */
static inline double tally_value(const Rules *R, const Tally *t, int size) {
    int depth = t->urgent * (size - 1) - t->urgent_at;
    double value = R->w_block * t->blockers + R->w_urgent * depth + R->w_buried * (size - 1 - t->deepest);
    if (R->w_unsorted != 0.0) value += R->w_unsorted * t->sorted_from;
    return value;
}

static double pile_value(const Rules *R, const uint8_t *pile, int size, const int8_t *need) {
    Tally t = NO_CARDS;
    for (int j = 0; j < size; j++) tally_card(R, &t, pile, j, need);
    return tally_value(R, &t, size);
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

/* The key: the tableau piles, the empty ones first (their bytes alike, a length of 0), the
 * others by bottom card, then the cells' cards, sorted. The cards of a position are those
 * of one deck, each once (read_position), so the bottoms are told apart, and sorted as the
 * bits of a word (cards are below 64) read from the lowest up. */
static int key_of(const Rules *R, const Pos *p, uint8_t *k) {
    int order[MAXP], n = 0;
    int8_t pile_of[64];
    uint64_t bottoms = 0;
    uint8_t *start = k;
    for (int t = R->T0; t < R->T0 + R->nt; t++) {
        if (!p->len[t]) { order[n++] = t; continue; }
        bottoms |= (uint64_t)1 << p->c[t][0];
        pile_of[p->c[t][0]] = (int8_t)t;
    }
    for (; bottoms; bottoms &= bottoms - 1) order[n++] = pile_of[__builtin_ctzll(bottoms)];
    for (int i = 0; i < n; i++) {
        int t = order[i], m = p->len[t];
        *k++ = (uint8_t)m;
        copy_cards(k, p->c[t], m);
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
        uint16_t found[MAXFOUND];                   /* destination << 8 | cards */
        int nf = 0, upto = run < limit ? run : limit;
        for (int n = 1; n <= upto; n++) {
            int card = pile[size - n];
            if (nf + R->nhosts[card] + MAXH > MAXFOUND) return -1;
            for (int h = 0; h < R->nhosts[card]; h++) {
                int dst = topped_by[R->hosts[card][h]];
                if (dst >= 0) found[nf++] = (uint16_t)(dst << 8 | n);
            }
        }
        if (ne) {
            int most = run < limit_to_empty ? run : limit_to_empty;
            if (size - 1 < most) most = size - 1;
            for (int n = 1; n <= most; n++) found[nf++] = (uint16_t)(empties[0] << 8 | n);
        }
        for (int i = 1; i < nf; i++)                    /* insertion sort: a few moves */
            for (int j = i; j > 0 && found[j - 1] > found[j]; j--) {
                uint16_t x = found[j]; found[j] = found[j - 1]; found[j - 1] = x;
            }
        if (np + nf + MAXP * (MAXP + 3) > MAXPLANS) return -1;   /* room for the moves below */
        for (int i = 0; i < nf; i++) out[np++] = (Plan){(uint8_t)src, (uint8_t)(found[i] >> 8), (uint8_t)found[i]};
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

/* ------------------------------------------------------------------ the search */

/* The loop's KeyOf (pooled proofs). */
static int key_of_slot(void *context, const uint8_t *slot, uint8_t *key) {
    Pos p;
    decode(context, slot, &p);
    return key_of(context, &p, key);
}

/* A child pushed (loop_child) and its position stored: 0, or -1 out of memory. */
static inline int push_child(Loop *L, const Rules *R, uint32_t parent, const Plan *m, int nm, uint32_t depth,
                             const Pos *p, double value, int64_t *won) {
    uint8_t *slot;
    if (loop_child(L, parent, m, nm, depth, value, won, &slot)) return -1;
    if (slot) encode(R, p, slot);
    return 0;
}

/* _Search.expand_next with CellsExpander.scored: the won node, EXPANDED if none, SKIPPED or
 * FAILED (loop.h). */
static int64_t expand(void *context, Loop *L, uint32_t *depth_out) {
    const Rules *R = context;
    Entry e;
    uint8_t key[KEYBUF];
    int next = loop_next(L, &e, key_of_slot, context, key);
    if (next <= 0) return next ? FAILED : SKIPPED;
    Node node = L->nodes[e.node];
    Pos p;
    decode(R, loop_position(L, e.node), &p);
    if (loop_release_slot(L, e.node)) return FAILED;
    *depth_out = node.depth;
    Facts f;
    facts_of(R, &p, &f);
    int undo_src = -1, undo_dst = -1, undo_n = -1;
    if (node.nmoves == 1) {
        const uint8_t *m = L->moves.data + node.moves;
        undo_src = m[1]; undo_dst = m[0]; undo_n = m[2];
    }
    double part[MAXP] = {0}, core = R->w_home * (R->total - f.cards_home);
    Tally after[MAXH];                /* after[at[t] + j]: pile t's cards 0..j (52 cards in all) */
    int at[MAXP], filled = 0, empty = 0;
    for (int t = R->T0, cards = 0; t < R->T0 + R->nt; t++) {
        Tally tally = NO_CARDS;
        at[t] = cards;
        for (int j = 0; j < p.len[t]; j++) {
            tally_card(R, &tally, p.c[t], j, f.need);
            after[cards++] = tally;
        }
        if (p.len[t]) { part[t] = tally_value(R, &tally, p.len[t]); core += part[t]; }
        else empty++;
    }
    for (int c = R->C0; c < R->C0 + R->nc; c++) filled += p.len[c] > 0;
    Plan plans[MAXPLANS], played[MAXSETTLE + 1];
    int np = plans_of(R, &p, &f, plans);
    if (np < 0) {
        L->error = "search_core: more moves from one position than it holds";
        return FAILED;
    }
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
            int ok = loop_admit(L, key, key_of(R, &p, key));
            if (ok > 0)
                ok = push_child(L, R, e.node, played, nm, node.depth + nm, &p, score(R, &p, &g), &won) ? -1 : 1;
            for (int j = nm - 1; j >= 1; j--) unplay_home(R, &p, played[j].src, played[j].dst);
            if (to_foundation) unplay_home(R, &p, src, dst);
            else move_cards(R, &p, dst, src, n);
            if (ok < 0) goto failed;
            continue;
        }
        int was_empty = p.len[dst] == 0;
        move_cards(R, &p, src, dst, n);
        int ok = loop_admit(L, key, key_of(R, &p, key));
        if (ok > 0) {
            double value = core - part[src] - part[dst];
            int cells = filled, empties = empty;
            if (R->kind[src] == 2) {
                value += rest ? tally_value(R, &after[at[src] + rest - 1], rest) : 0.0;
                if (!rest) empties++;
            } else cells--;
            if (R->kind[dst] == 2) {
                int size = p.len[dst], old = size - n;
                Tally tally = old ? after[at[dst] + old - 1] : NO_CARDS;
                for (int j = old; j < size; j++) tally_card(R, &tally, p.c[dst], j, f.need);
                value += tally_value(R, &tally, size);
                if (was_empty) empties--;
            } else cells++;
            value += room(R, cells, empties);
            ok = push_child(L, R, e.node, &m, 1, node.depth + 1, &p, value > 0.5 ? value : 0.5, &won) ? -1 : 1;
        }
        move_cards(R, &p, dst, src, n);             /* back to the parent */
        if (ok < 0) goto failed;
    }
    if (won >= 0) return won;
    if (loop_trim(L)) goto failed;
    return EXPANDED;
failed:
    return FAILED;
}

/* ------------------------------------------------------------------ the kernel's table */

/* The rules, as native.py's pack_rules packs them: four bytes (piles, the step as a signed
 * byte, the start rank, the cards), a byte a pile (its kind: 0 foundation, 1 cell, 2 tableau,
 * each kind one run), fits (64 x 64 bytes: fits[under][over]), safe (64 x SAFE_WAYS x 4
 * bytes: by card, each way, the cards home it asks of each suit), supermove ((cells + 1) x
 * (tableau piles + 1) bytes). The weights: the 7 of score.py (home, blockers, urgent,
 * buried, unsorted, cells, empty). */
static const char *load(void *context, const uint8_t *b, size_t size, const double *w) {
    Rules *R = context;
    if (size < 4) return "search_core: freecell rules of 4 bytes at least";
    R->np = b[0];
    int step = (int8_t)b[1], start_rank = b[2], total = b[3];
    if (R->np < 1 || R->np > MAXP) return "search_core: 1 to 32 piles";
    if (size < 4 + (size_t)R->np) return "search_core: freecell rules cut short";
    const uint8_t *k = b + 4;
    int first[3] = {-1, -1, -1}, count[3] = {0};
    for (int i = 0; i < R->np; i++) {
        if (k[i] > 2 || (count[k[i]] && first[k[i]] + count[k[i]] != i)) return "search_core: each kind of pile must be one run";
        if (!count[k[i]]) first[k[i]] = i;
        count[k[i]]++;
        R->kind[i] = k[i];
    }
    R->nf = count[0]; R->nc = count[1]; R->nt = count[2];
    R->F0 = first[0]; R->C0 = first[1]; R->T0 = first[2];
    if (!R->nf || !R->nt) return "search_core: foundations and tableau needed";
    size_t cells = (size_t)(R->nc + 1) * (size_t)(R->nt + 1);
    if (size != 4 + (size_t)R->np + 64 * 64 + sizeof R->safe + cells)
        return "search_core: freecell rules of the wrong size for their piles";
    const uint8_t *ft = k + R->np, *sf = ft + 64 * 64, *sm = sf + sizeof R->safe;
    memcpy(R->fits, ft, sizeof R->fits);
    for (int card = 0; card < 64; card++)
        for (int under = 0; under < 64; under++)
            if (R->fits[under][card]) R->hosts[card][R->nhosts[card]++] = (uint8_t)under;
    for (int c = 0; c <= R->nc; c++)
        for (int e = 0; e <= R->nt; e++) R->supermove[c][e] = sm[c * (R->nt + 1) + e];
    memcpy(R->safe, sf, sizeof R->safe);
    if (total < 1 || total > 52 || (step != 1 && step != -1) || start_rank < 1 || start_rank > 13)
        return "search_core: one deck, foundations building by one";
    R->step = step; R->start_rank = start_rank; R->last_rank = step > 0 ? 13 : 1;
    R->w_home = w[0]; R->w_block = w[1]; R->w_urgent = w[2]; R->w_buried = w[3];
    R->w_unsorted = w[4]; R->w_cells = w[5]; R->w_empty = w[6];
    R->total = total;
    R->slot = R->np + total;
    return NULL;
}

static size_t slot_bytes(const void *context) { return (size_t)((const Rules *)context)->slot; }

/* A position as native.py packs it is the slot's encoding: checked, then copied. The cards
 * of the cells and tableau are cards of one deck, each once (key_of orders the piles by
 * their bottom cards, told apart by that). */
static int read_position(const void *context, const uint8_t *b, size_t n, uint8_t *slot) {
    const Rules *R = context;
    size_t at = 0;
    uint64_t seen = 0;
    if (n > (size_t)R->slot) return -1;
    for (int i = 0; i < R->np; i++) {
        if (at >= n) return -1;
        int size = R->kind[i] == 0 ? 0 : b[at++];
        if (R->kind[i] == 0 && b[at++] >= 64) return -1;
        if (size > MAXH || (R->kind[i] == 1 && size > 1) || at + size > n) return -1;
        for (int j = 0; j < size; j++) {
            int card = b[at + j];
            if (!card || card >= 64 || seen >> card & 1) return -1;
            seen |= (uint64_t)1 << card;
        }
        at += size;
    }
    if (at != n) return -1;
    memcpy(slot, b, n);
    return 0;
}

static size_t write_position(const void *context, const uint8_t *slot, uint8_t *out) {
    Pos p;
    decode(context, slot, &p);
    return (size_t)encode(context, &p, out);
}

static double score_of_slot(const void *context, const uint8_t *slot) {
    Pos p;
    Facts f;
    decode(context, slot, &p);
    facts_of(context, &p, &f);
    return score(context, &p, &f);
}

static int key_of_position(const void *context, const uint8_t *slot, uint8_t *key) {
    return key_of_slot((void *)context, slot, key);
}

static const KernelLimit limits[] = {{"MAX_PILES", MAXP}, {NULL, 0}};

const Kernel freecell_kernel = {
    .name = "freecell",
    .move_bytes = 3,
    .most_moves = MAXSETTLE,
    .key_bytes = KEYBUF,
    .weights = 7,
    .context_bytes = sizeof(Rules),
    .load = load,
    .slot_bytes = slot_bytes,
    .read = read_position,
    .write = write_position,
    .key = key_of_position,
    .score = score_of_slot,
    .expand = expand,
    .limits = limits,
};
