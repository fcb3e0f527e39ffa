/* Interlock's kernel: InterlockExpander's successors (expander.py, moves.py, bridges.py,
 * solver/stock.py), the patience score (solver/heuristics.py) and _cycle_key with keys.py's
 * sorting of uncovered back piles, in C, for the compiled search (solver/search_core.c,
 * kernel.h's table). The loop itself (frontier, tables, nodes, exploring) is solver/loop.h's,
 * shared by the families.
 *
 * It is a second writing of what those Python files say, not a source of rules: every
 * table it plays by (the layout: which piles cover which and which are gone once empty;
 * which card goes on which; which cards head a
 * group to an empty back pile; the suits that make a card safe; the score's weights) is
 * packed by native.py's ``pack_rules`` from the game, and it expands the same
 * positions in the same order as the Python search: the same successors, keys and scores,
 * the same frontier (a heap, and with ``explore`` the same random kinds drawn from the same
 * Mersenne Twister as Python's random.Random(0)), the same transposition tables, evictions
 * and trims. tests/test_kernels.py and tests/test_native_interlock.py compare the two successor by successor and
 * search by search; the solver replays every win through State.play.
 *
 * What it takes from the rules without a table (native.py runs it only where they hold,
 * bridges.applies and expander.fast_path): one deck, foundations up in suit from the Ace,
 * one card turned at a time with unlimited redeals, runs only, no free cells, no face-down
 * tableau cards.
 *
 * The other games of the family (Love a Duck, Guardian) are searched by
 * InterlockFamilyExpander, the general successors (``plain``): no bridges, the safe moves of
 * solver/autoplay.py (a tableau card goes home once both cards of the other colour one rank
 * lower are home), patience_key's plain key (the tableau piles joined, the uncovered back
 * piles sorted, then the stock and the waste as they lie), the waste's card played as any
 * card, and a stock of ``draw`` cards a turn walked as stock.py's _walk walks it through the
 * engine (unlimited redeals), each card it turns up played where it fits. The rules also say
 * whether a group is a run or every face-up card (``yukon``: Love a Duck), whether an empty
 * back pile takes any card (``anything``: Guardian; the dead-end test then lets any card go
 * to one and tries host splits at the search's start, no other split) and whether covered
 * piles hold face-down cards (``face_down``:
 * Guardian's, turned up as patience.py's and rules.py's ``reveal`` turns them, and read face
 * up by the dead-end test).
 *
 * The dead-end test (deadends.py's DeadEnds.is_dead) is written again here too, asked of
 * every position expanded as PatienceExpander.expand asks it, with DeadEnds' own tables
 * and constants (search_core calls a test of another kind back in Python instead).
 *
 * A position is kept as bytes: for each pile in the game's order, a foundation as its top
 * card (0 when empty), any other pile as its length and its cards (the stock's face down,
 * as the engine keeps them), then the redeals so far (4 bytes, little-endian: State.extra).
 * A key is _cycle_key's bytes exactly.
 *
 * The bridges come in bridges.py's order: by target pile, then by first card (the cards it
 * fits on ascending, or on an empty back pile the reserve's Kings in turning order), then as
 * bridges._chains finds them, a chain's next cards ascending.
 *
 * Scores are sums of counts times weights. native.py uses this core only when every weight
 * is a multiple of 1/1024 below 2^20: then every partial sum is exact in a double, so any
 * order of adding gives the Python score to the last bit. A priority adds the depth weight
 * times the depth to it as search.py does, in the same two rounded steps (loop.h's
 * loop_priority), so the depth weight may be any double. */

#include "../../solver/kernel.h"

#define MAXP 40          /* piles */
#define MAXH 56          /* cards in one pile: one deck holds 52 */
#define MAXMOVES 1024    /* moves of one successor, turn runs counted once */
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
    int twin, killers, killer_tries, scout, plain_first, first_depth, king_depth, nested_tries, nest_scout;
    int patience;                     /* failures in a row of the King split or nested killers: then every scout-th */
    int never_home;                   /* a host split's case (never): its twin, no card, so never home */
    int anything;                     /* an empty back pile takes any card: S lets any card go, host splits */
} DeadRules;

typedef struct { uint8_t guest, twin, host, other, virtual_; } Split;

/* A nested killer (deadends.py's): a split and, for each of its cases, the split nested in it
 * that proved it dead (``has``), or none (its closure did). */
typedef struct { Split split, inner[2]; uint8_t has[2]; } Nested;

/* A case of the King split (deadends.king_slot's): the order in which Kings first go to empty
 * back piles; ``closed``: no other King goes to one. */
typedef struct { uint8_t order[4]; int n, closed; } KingCase;

/* What the dead-end test remembers of the positions asked before. */
typedef struct {
    long long alive;                  /* positions the plain closure left alive */
    Split killers[16]; int nkillers;  /* splits that proved positions dead, latest first */
    Nested nested[16]; int nnested;   /* nested killers, latest first */
    long long nested_missed;          /* positions in a row on which the nested killers tried failed */
    long long sharing;                /* positions where Kings might share a back pile */
    long long kings_missed;           /* positions in a row the King split failed on (never tried: patience) */
    KingCase king_case; int king_known;   /* the King split's case last found alive, if any */
} DeadState;

typedef struct {
    int np, F0, nf, T0, nt, stock, waste, total;   /* no stock: stock and waste are -1 */
    int plain;                        /* the general successors: autoplay's safe moves, the plain key */
    int safe_tops;                    /* with them, the safe cards' lemma too (is_safe_or_lemma) */
    int yukon;                        /* a group is every face-up card, not a run */
    int face_down;                    /* covered piles hold face-down cards, turned up once uncovered */
    int draw;                         /* cards a turn of the stock (the general successors' walk) */
    int turns;                        /* the draw where the search keeps turn dominance, else 0 */
    int8_t pair[MAXP][2];             /* the two piles covering a pile; -1: never covered */
    uint8_t gone[MAXP];               /* takes no card once empty (middle and front piles) */
    uint8_t covered[MAXP][2], ncovered[MAXP];   /* the piles a pile covers, in order */
    uint8_t drop[MAXP][3]; int ndrop; /* (x, a, b): piles that may be dropped onto, covered by a, b */
    uint8_t back[MAXP][3]; int nback; /* back piles and their covers: sorted in the key */
    uint8_t fits[64][64];             /* fits[under][over]: over may be built on under */
    uint8_t fit_order[64][4], nfit[64];   /* fits_on[under], ascending (stock.hosts_in_order) */
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
    if (!size || R->yukon) return size;     /* a tableau card here is face up (read_position) */
    int n = 1;
    while (n < size && R->fits[pile[size - n - 1]][pile[size - n]]) n++;
    return n;
}

/* stock.cycle: the reserve's cards in turning order, from the waste's bottom, face up. */
static int cycle_of(const Rules *R, const Pos *p, uint8_t *out) {
    if (R->stock < 0) return 0;
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

/* A successor's moves; ``count`` counts every move, each turn too (its depth). */
typedef struct { Plan m[MAXMOVES]; int n, count, over; } Moves;

/* ``to`` becomes ``from``: the moves made, not the whole table. */
static inline void moves_copy(Moves *to, const Moves *from) {
    memcpy(to->m, from->m, (size_t)from->n * sizeof(Plan));
    to->n = from->n;
    to->count = from->count;
    to->over = from->over;
}

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

/* rules.py's reveal, after cards left tableau pile ``src``: the face-down top card of
 * ``src`` and, if it is empty now, of each pile it uncovered, turned up where uncovered. */
static void reveal(const Rules *R, Pos *p, int src) {
    if (!R->face_down) return;
    int piles[3] = {src}, n = 1;
    if (!p->len[src])
        for (int k = 0; k < R->ncovered[src]; k++) piles[n++] = R->covered[src][k];
    for (int i = 0; i < n; i++) {
        int t = piles[i], size = p->len[t];
        if (size && p->c[t][size - 1] & 64 && uncovered(R, p, t)) p->c[t][size - 1] &= 63;
    }
}

/* bridges._safe_card: (card, pile) of a card that goes home next and safely, pile -1 for
 * the reserve; 0 if none. */
static int safe_card(const Rules *R, const Pos *p, const Facts *f, int *card, int *src) {
    if (!f->nsafe) return 0;
    for (int t = R->T0; t < R->T0 + R->nt; t++)
        if (p->len[t] && uncovered(R, p, t) && f->safe[top_of(p, t)]) { *card = top_of(p, t); *src = t; return 1; }
    int w = R->waste < 0 ? 0 : p->len[R->waste];
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

/* autoplay.settle with autoplay.is_safe (the ``plain`` rules), or with
 * autoplay.is_safe_or_lemma (``safe_tops``): the first uncovered tableau top, in pile order, that goes home next and
 * onto which no card not home could be built (both suits of the other colour home to one
 * rank below it) or, with ``safe_tops``, that the safe cards' lemma sends home (both home to
 * two ranks below it, the other suit of its colour to three), until none is left. */
static void settle_plain(const Rules *R, Pos *p, Moves *mv, Facts *f) {
    for (;;) {
        int src = -1;
        for (int t = R->T0; t < R->T0 + R->nt && src < 0; t++) {
            if (!p->len[t]) continue;
            int c = top_of(p, t), s = c >> 4 & 3, r = c & 15;
            if (c & 64 || r != f->level[s] + 1 || !uncovered(R, p, t)) continue;
            int lo = f->level[R->other[s][0]] < f->level[R->other[s][1]] ? f->level[R->other[s][0]]
                                                                          : f->level[R->other[s][1]];
            if (r == 1 || lo >= r - 1 || (R->safe_tops && lo >= r - 2 && f->level[R->same[s]] >= r - 3)) src = t;
        }
        if (src < 0) return;
        int dst = home_of(f, top_of(p, src));
        move_cards(p, src, dst, 1);
        reveal(R, p, src);
        mv_add(mv, src, dst, 1);
        facts_of(R, p, f);
    }
}

/* bridges.settle: the safe cards home, from a pile that may give them or the reserve.
 * ``f`` holds the position's facts, before and after. */
static void settle(const Rules *R, Pos *p, Moves *mv, Facts *f) {
    if (R->plain) { settle_plain(R, p, mv, f); return; }
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
        if (p->len[q] && uncovered(R, p, q) && f->safe[top_of(p, q)]) return 1;   /* else maybe face down */
    }
    return 0;
}

/* ------------------------------------------------------------------ key and score */

/* bytes(pile) + b"\xff" against another's, as Python compares bytes; with ``plain``,
 * bytes(pile) alone (the plain key's parts). */
static int cmp_part(const Pos *p, int a, int b, int plain) {
    int la = p->len[a], lb = p->len[b], n = la < lb ? la : lb;
    for (int j = 0; j < n; j++)
        if (p->c[a][j] != p->c[b][j]) return p->c[a][j] - p->c[b][j];
    if (la == lb) return 0;
    return (la < lb) == plain ? -1 : 1;     /* a prefix is the smaller, unless its 0xff follows */
}

/* A pile's ``n`` cards to the key at ``k``: most piles hold at most CHUNK, copied as one block
 * (a pile's row holds MAXH bytes, the key's buffer KEYBUF: room for the bytes past n). */
static inline uint8_t *key_cards(uint8_t *k, const uint8_t *cards, int n) {
    if (n <= CHUNK) copy_cards(k, cards, n);
    else memcpy(k, cards, (size_t)n);
    return k + n;
}

/* solver/keys.py _cycle_key with keys.backs_uncovered: the foundations sorted as bytes,
 * no cells, then every tableau pile and 0xff, the uncovered back piles' parts sorted; with
 * the ``plain`` rules, patience_key's plain key: the tableau piles joined by 0xff, the
 * uncovered back piles sorted as their bytes alone, then 0xfe, the reserve's cards in turning
 * order, their count and the waste's (keys.py's layout for a stock turned several cards at a
 * time), where there is a stock (its redeals are unlimited: not in the key). */
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
        k = key_cards(k, p->c[fs[j]], p->len[fs[j]]);
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
            while (j > 0 && cmp_part(p, sorted[j - 1], t, R->plain) > 0) { sorted[j] = sorted[j - 1]; j--; }
            sorted[j] = t;
        }
        for (int i = 0; i < nfree; i++) from[free_[i]] = sorted[i];
    }
    for (int t = R->T0; t < R->T0 + R->nt; t++) {
        k = key_cards(k, p->c[from[t]], p->len[from[t]]);
        *k++ = 0xff;
    }
    if (R->plain) {
        k--;                                          /* joined: no 0xff after the last pile */
        if (R->stock >= 0) {       /* then the turning order, its size and the waste's count */
            *k++ = 0xfe;
            int size = cycle_of(R, p, k);
            k += size;
            *k++ = (uint8_t)size;
            *k++ = p->len[R->waste];
        }
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
    int reserve = R->stock < 0 ? 0 : p->len[R->stock] + p->len[R->waste];
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
    uint8_t cycle[MAXH]; int ncycle, on_waste;   /* rule T (draw > 1): the cycle, the waste's count */
    int8_t at[64];                                /* each card's place in the cycle; -1: none */
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
    st->nreserve = st->ncycle = 0;
    if (R->stock < 0) return;
    for (int i = 0; i < p->len[R->stock]; i++) st->reserve[st->nreserve++] = p->c[R->stock][i] & 63;
    for (int i = 0; i < p->len[R->waste]; i++) st->reserve[st->nreserve++] = p->c[R->waste][i] & 63;
    if (R->draw <= 1) return;                             /* _cycle */
    memset(st->at, -1, sizeof st->at);
    st->on_waste = p->len[R->waste];
    st->ncycle = cycle_of(R, p, st->cycle);
    for (int x = 0; x < st->ncycle; x++) st->at[st->cycle[x]] = (int8_t)x;
}

/* deadends._comes_up: might card x of the cycle come up by a turn, itself or a card x + j
 * (the ``run`` of cards after x that might leave covering the cards between), in this pass
 * or a later one? ``turn`` is (x - on_waste + 1) % draw and ``next`` (x + 1) % draw, kept by
 * shown as it walks, so that no division is made here. In this pass, the first j from
 * max(0, on_waste - 1 - x) that makes x + j - on_waste + 1 a multiple of draw is that bound
 * itself where x lies under the waste's top, else draw - turn (0 if turn is 0): deadends
 * asks the draw values of j from the bound, one of which is it, up to ``run``. */
static inline int comes_up(int x, int run, int before, int draw, int on_waste, int turn, int next) {
    if (x < on_waste - 1 ? on_waste - 1 - x <= run : (turn ? draw - turn : 0) <= run) return 1;
    for (int j = 0; j <= run && j <= draw; j++) {       /* a later pass: (x + j + 1) % draw */
        if (next <= before + (j > 1 ? j - 1 : 0)) return 1;
        if (++next == draw) next = 0;
    }
    return 0;
}

/* deadends.shown: rule T, marking in ``up`` each card of the cycle that might come to the
 * top of the waste once the cards marked in ``left`` (``nleft`` of them) might leave the
 * reserve; 1 if any is new. Walked from the cycle's end, so that the run of cards after x
 * that might leave is known at x; the cards before x that might leave are the others. */
static int shown(int draw, int on_waste, const uint8_t *left, int nleft, uint8_t *up, int n) {
    int fresh = 0, after = 0, later = 0;                /* cards after x that might leave: in a run; all */
    int next = (n + 1) % draw, turn = ((n - on_waste) % draw + draw) % draw;   /* x = n - 1's, next once stepped */
    for (int x = n - 1; x >= 0; x--) {
        next = next ? next - 1 : draw - 1;
        if (!up[x] && (x + after == n - 1
                       || comes_up(x, after, nleft - later - left[x], draw, on_waste, turn, next)))
            up[x] = fresh = 1;
        turn = turn ? turn - 1 : draw - 1;
        after = left[x] ? after + 1 : 0;
        later += left[x];
    }
    return fresh;
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

#define S_FIRST 4       /* deadends.S_FIRST: uses[king], the first King sent to an empty back pile */
#define S_SHARED 8      /* deadends.S_SHARED: uses[king], one sent while the Kings before might hold every one found */
#define S_SENT 64       /* deadends.S_SENT: uses[king], sent to an empty back pile */
#define LEFT_FREE 16    /* deadends.LEFT_FREE: uses[card] << host's place, the card might leave that host when it went home */

/* deadends.note_king: a King that the plain closure's rule S sends to an empty back pile,
 * noted in ``uses``, and added to the ``nsent`` Kings ``sent`` before it. */
static inline void note_king(uint8_t *uses, int king, uint8_t *sent, int *nsent, int slots, const int *home) {
    int waiting = 0;
    for (int i = 0; i < *nsent; i++) waiting += home[sent[i] >> 4] < KING;
    uses[king] |= *nsent ? S_SENT : S_SENT | S_FIRST;
    if (slots < 1 + waiting) uses[king] |= S_SHARED;
    sent[(*nsent)++] = (uint8_t)king;
}

/* deadends.king_slot, and rule S's other half: may ``card`` go to an empty back pile, once
 * ``slots`` back piles were found empty and uncovered, under the King split's case ``kc``
 * (NULL: none)? */
static inline int to_slot(const DeadRules *D, int card, int slots, const int *home, const KingCase *kc) {
    if (!slots) return 0;
    if (D->anything) return 1;
    if ((card & 15) != KING) return 0;
    if (!kc) return 1;
    int waiting = 0;
    for (int i = 0; i < kc->n; i++) {
        if (kc->order[i] == card) return slots >= 1 + waiting;
        waiting += home[kc->order[i] >> 4] < KING;
    }
    return !kc->closed && slots >= 1 + waiting;
}

/* DeadEnds._note_left: ``host`` found home; LEFT_FREE for each guest that might leave it by then. */
static void note_left(const Rules *R, uint8_t *uses, int host, const int *home, const uint8_t *available, int slots) {
    int rank = (host & 15) - 1;
    for (int i = 0; i < 2; i++) {
        int suit = R->other[host >> 4][i], guest = suit << 4 | rank;
        if (home[suit] >= rank || available[host ^ R->dead.twin] || slots)
            uses[guest] |= LEFT_FREE << (R->dead.pair[guest][1] == host ? 0 : 1);
    }
}

/* DeadEnds._closure: 1 if every card is found to go home. ``kc``: the King split's case, or
 * NULL; ``held``: a host split's case (leaves), or NULL. */
static int closure(const Rules *R, const Pos *p, const uint8_t (*pair)[3], const Split *splits, int ns,
                   uint8_t *uses, const Start *st, const KingCase *kc, const Split *held) {
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
    int changed = 1, nsent = 0;
    uint8_t sent[4];                                    /* the Kings rule S sent, in order (note_king) */
    uint8_t up[MAXH] = {0}, left[MAXH] = {0};           /* T found; A or H found: by place in the cycle */
    int nleft = 0, shown_at = -1;                       /* cards in ``left``; their count when ``shown`` ran */
    while (changed) {
        changed = 0;
        if (st->ncycle && nleft != shown_at) {           /* rule T, where a card has left since */
            if (shown(R->draw, st->on_waste, left, nleft, up, st->ncycle)) changed = 1;
            shown_at = nleft;
        }
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
            if (!(home[bottom >> 4 & 3] >= rank || available[h0] || available[h1] || to_slot(D, bottom, slots, home, kc)
                  || (st->ndrops[t] && drops_ok(st, t, empty, bottom, home, available, splits, ns)))) {
                still[nstill++] = (uint8_t)t;
                continue;
            }
            empty[t] = changed = 1;
            if (uses) {
                uses[bottom] |= available[h0] | available[h1] << 1;
                if (rank == KING && home[bottom >> 4 & 3] < KING) note_king(uses, bottom, sent, &nsent, slots, home);
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
            if (home[e.suit] >= e.rank || available[e.h0] || available[e.h1]
                    || to_slot(D, e.suit << 4 | e.rank, slots, home, kc)) {
                bare[e.card] = changed = 1;
                if (uses) {
                    uses[e.suit << 4 | e.rank] |= available[e.h0] | available[e.h1] << 1;
                    if (e.rank == KING && home[e.suit] < KING) note_king(uses, e.suit << 4 | e.rank, sent, &nsent, slots, home);
                }
                available[e.card] = uncovered[st->pile_of[e.card]];
            } else still_buried[ns_b++] = e;
        }
        memcpy(buried, still_buried, ns_b * sizeof(Buried));
        nb = ns_b;
        int nu = 0;
        for (int k = 0; k < nr; k++) {                   /* rule A for reserve cards */
            int card = reserve[k], h0 = pair[card][1], h1 = pair[card][2];
            if ((!st->ncycle || up[st->at[card]])
                    && (available[h0] || available[h1] || to_slot(D, card, slots, home, kc))) {
                available[card] = changed = 1;
                if (st->ncycle && !left[st->at[card]]) { left[st->at[card]] = 1; nleft++; }
                if (uses) {
                    uses[card] |= available[h0] | available[h1] << 1;
                    if ((card & 15) == KING) note_king(uses, card, sent, &nsent, slots, home);
                }
            } else unplaced[nu++] = (uint8_t)card;
        }
        memcpy(reserve, unplaced, nu);
        nr = nu;
        int all = 1;
        for (int s = 0; s < 4; s++) {
            while (home[s] < KING) {
                int card = s << 4 | (home[s] + 1), t = st->pile_of[card];
                if (t >= 0 && !(uncovered[t] && bare[card])) break;
                if (held && card == held->host && !(home[held->guest >> 4 & 3] >= (held->guest & 15)
                                                    || available[held->other] || (D->anything && slots)))
                    break;
                if (t < 0 && st->ncycle && st->at[card] >= 0) {          /* a reserve card: rule T */
                    int x = st->at[card];
                    if (!up[x]) break;
                    if (!left[x]) { left[x] = 1; nleft++; }
                }
                home[s]++;
                changed = 1;
                if (uses && D->anything && (card & 15) > 1) note_left(R, uses, card, home, available, slots);
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

/* DeadEnds._case: the split's case ``c`` (0: its twin first on the host, 1: its guest). */
static Split case_of(const Split *split, int c, uint8_t virtual_) {
    return (Split){c ? split->guest : split->twin, c ? split->twin : split->guest, split->host, split->other,
                   virtual_};
}

/* DeadEnds._lost_both_ways: dead under both cases of the split, each with ``splits`` kept. */
static int lost_both_ways(const Rules *R, const Pos *p, const Split *split, const Split *splits, int ns,
                          int depth, const Start *st) {
    Split more[4];
    if (ns >= 3) return 0;                       /* VIRTUALS: deeper nesting never asked */
    memcpy(more, splits, ns * sizeof(Split));
    for (int c = 0; c < 2; c++) {
        more[ns] = case_of(split, c, R->dead.virtuals[ns]);
        if (!dead_under(R, p, more, ns + 1, depth, st)) return 0;
    }
    return 1;
}

/* DeadEnds._split_pair: the pairs with each split's guest taking its virtual card for the host. */
static void split_pair(const Rules *R, const Split *splits, int ns, uint8_t (*pair)[3]) {
    memcpy(pair, R->dead.pair, sizeof R->dead.pair);
    for (int i = 0; i < ns; i++)
        for (int j = 0; j < 3; j++)
            if (pair[splits[i].guest][j] == splits[i].host) pair[splits[i].guest][j] = splits[i].virtual_;
}

static int dead_under(const Rules *R, const Pos *p, const Split *splits, int ns, int depth, const Start *st) {
    uint8_t pair[64][3], uses[64] = {0};
    split_pair(R, splits, ns, pair);
    if (!closure(R, p, (const uint8_t (*)[3])pair, splits, ns, depth ? uses : NULL, st, NULL, NULL)) return 1;
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

/* Does the closure under the King split's case ``kc`` find every card home? Kept, if so, to be
 * tried first next time. */
static int king_case_alive(const Rules *R, DeadState *DS, const Pos *p, const Start *st, const KingCase *kc) {
    if (!closure(R, p, (const uint8_t (*)[3])R->dead.pair, NULL, 0, NULL, st, kc, NULL)) return 0;
    DS->king_case = *kc;
    DS->king_known = 1;
    return 1;
}

static int same_case(const KingCase *a, const KingCase *b) {
    return a->n == b->n && !memcmp(a->order, b->order, (size_t)a->n);
}

/* Is some case of the King split alive that extends ``kc`` to ``size`` Kings of ``sent``
 * (``n``), other than ``tried``, in the order of itertools.permutations? */
static int some_order_alive(const Rules *R, DeadState *DS, const Pos *p, const Start *st, KingCase *kc, int size,
                            const uint8_t *sent, int n, const KingCase *tried) {
    if (kc->n == size) {
        kc->closed = size < R->dead.king_depth;
        return !(tried && same_case(kc, tried)) && king_case_alive(R, DS, p, st, kc);
    }
    for (int i = 0; i < n; i++) {
        int in = 0;
        for (int j = 0; j < kc->n; j++) in |= kc->order[j] == sent[i];
        if (in) continue;
        kc->order[kc->n++] = sent[i];
        int alive = some_order_alive(R, DS, p, st, kc, size, sent, n, tried);
        kc->n--;
        if (alive) return 1;
    }
    return 0;
}

/* Is some case of the King split alive (deadends.king_cases: the orders of king_depth Kings
 * of ``sent``, or of all of them if fewer, the case last found alive first if it is one)? */
static int some_case_alive(const Rules *R, DeadState *DS, const Pos *p, const Start *st, const uint8_t *sent, int n) {
    int size = n < R->dead.king_depth ? n : R->dead.king_depth;
    KingCase last = DS->king_case, kc = {{0}, 0, 1};
    int known = DS->king_known && last.n == size;
    for (int i = 0; known && i < last.n; i++) known = memchr(sent, last.order[i], (size_t)n) != NULL;
    if (known && king_case_alive(R, DS, p, st, &last)) return 1;
    return some_order_alive(R, DS, p, st, &kc, size, sent, n, known ? &last : NULL);
}

/* DeadEnds._kings_lost: dead under every case of the King split (``uses``: the plain closure's). */
static int kings_lost(const Rules *R, DeadState *DS, const Pos *p, const uint8_t *uses, const Start *st) {
    int shared = 0, n = 0;
    uint8_t sent[4];
    for (int s = 0; s < 4; s++) {
        shared |= uses[s << 4 | KING] & S_SHARED;
        if (uses[s << 4 | KING] & S_FIRST) sent[n++] = (uint8_t)(s << 4 | KING);
    }
    if (!shared) return 0;
    DS->sharing++;
    if (DS->kings_missed >= R->dead.patience && (DS->sharing - 1) % R->dead.scout) return 0;
    for (int s = 0; s < 4; s++)
        if ((uses[s << 4 | KING] & (S_SENT | S_FIRST)) == S_SENT) sent[n++] = (uint8_t)(s << 4 | KING);
    if (some_case_alive(R, DS, p, st, sent, n)) { DS->kings_missed++; return 0; }
    DS->kings_missed = 0;
    return 1;
}

/* DeadEnds._host_lost for each of DeadEnds._host_splits: dead under both cases of the host
 * split of some card that moved while one of its hosts alone was available, that host,
 * unless the card might leave it when it went home (LEFT_FREE); cards in order. */
static int hosts_lost(const Rules *R, const Pos *p, const uint8_t *uses, const Start *st) {
    const DeadRules *D = &R->dead;
    for (int card = 0; card < 64; card++) {
        int u = uses[card] & 3, h0 = D->pair[card][1], h1 = D->pair[card][2];
        if ((u != 1 && u != 2) || uses[card] & LEFT_FREE << (u - 1)) continue;
        Split held = {(uint8_t)card, 0, (uint8_t)(u == 1 ? h0 : h1), (uint8_t)(u == 1 ? h1 : h0), 0};
        Split never = {held.guest, (uint8_t)D->never_home, held.host, 0, D->virtuals[0]};  /* its virtual never free */
        if (!closure(R, p, (const uint8_t (*)[3])D->pair, NULL, 0, NULL, st, NULL, &held)
                && dead_under(R, p, &never, 1, 0, st))
            return 1;
    }
    return 0;
}

static int same_split(const Split *a, const Split *b) {
    return a->guest == b->guest && a->twin == b->twin && a->host == b->host && a->other == b->other;
}

static int same_nested(const Nested *a, const Nested *b) {
    int same = same_split(&a->split, &b->split);
    for (int c = 0; c < 2; c++)
        same &= a->has[c] == b->has[c] && (!a->has[c] || same_split(&a->inner[c], &b->inner[c]));
    return same;
}

/* DeadEnds._case_dead: dead under the split's case ``c``, by both cases of the split ``inner``
 * (if any) nested in it, or else by its closure. */
static int case_dead(const Rules *R, const Pos *p, const Split *split, int c, const Split *inner, const Start *st) {
    Split under = case_of(split, c, R->dead.virtuals[0]);
    return (inner && lost_both_ways(R, p, inner, &under, 1, 0, st)) || dead_under(R, p, &under, 1, 0, st);
}

/* DeadEnds._case_killer: 1 if the position is dead under the split's case ``c``, by its closure
 * (``*has`` 0) or by both cases of a split its closure suggests, of another pair of twins,
 * nested in it (``*inner``, ``*has`` 1); 0 if neither. */
static int case_killer(const Rules *R, const Pos *p, const Split *split, int c, const Start *st, Split *inner,
                       uint8_t *has) {
    Split under = case_of(split, c, R->dead.virtuals[0]), found[64];
    uint8_t pair[64][3], uses[64] = {0};
    split_pair(R, &under, 1, pair);
    *has = 0;
    if (!closure(R, p, (const uint8_t (*)[3])pair, &under, 1, uses, st, NULL, NULL)) return 1;
    int n = splits_of(R, uses, found);
    for (int k = 0; k < n; k++)
        if (found[k].guest != split->guest && lost_both_ways(R, p, &found[k], &under, 1, 0, st)) {
            *inner = found[k];
            *has = 1;
            return 1;
        }
    return 0;
}

/* deadends.remember: put ``item`` (of ``size`` bytes) first in ``list`` (``*n`` long, latest
 * first, at most ``most``), once; ``at``: where it is, or ``*n`` if it is not there. */
static void remember(void *list, int *n, int most, const void *item, size_t size, int at) {
    if (at == *n && *n < most) (*n)++;
    if (at >= *n) at = *n - 1;                    /* the last one falls out */
    memmove((char *)list + size, list, (size_t)at * size);
    memcpy(list, item, size);
}

/* DeadEnds._proved: remember the nested killer ``t`` (at ``at``, or nnested if new) that proved
 * a position dead, and try them all again. */
static int nested_proved(DeadState *DS, const DeadRules *D, const Nested *t, int at) {
    remember(DS->nested, &DS->nnested, D->killers, t, sizeof *t, at);
    DS->nested_missed = 0;
    return 1;
}

/* DeadEnds._nested_lost: dead by a nested killer, the nested_tries latest whose split the plain
 * closure suggests (``splits``), unless they failed on the last patience positions they
 * were tried on (then on every scout-th only), or, at every nest_scout-th position, by some
 * suggested split nested one deep (remembered). */
static int nested_lost(const Rules *R, DeadState *DS, const Pos *p, const Split *splits, int n, const Start *st) {
    const DeadRules *D = &R->dead;
    if (DS->nested_missed < D->patience || DS->alive % D->scout == 0) {
        int tried = 0;
        for (int k = 0; k < DS->nnested && tried < D->nested_tries; k++) {
            Nested t = DS->nested[k];
            int suggested = 0;
            for (int i = 0; i < n; i++) suggested |= same_split(&t.split, &splits[i]);
            if (!suggested) continue;
            tried++;
            if (case_dead(R, p, &t.split, 0, t.has[0] ? &t.inner[0] : NULL, st)
                    && case_dead(R, p, &t.split, 1, t.has[1] ? &t.inner[1] : NULL, st))
                return nested_proved(DS, D, &t, k);
        }
        DS->nested_missed += tried > 0;
    }
    if (DS->alive % D->nest_scout) return 0;
    for (int i = 0; i < n; i++) {
        Nested t = {splits[i], {{0}}, {0}};
        if (!case_killer(R, p, &t.split, 0, st, &t.inner[0], &t.has[0])
                || !case_killer(R, p, &t.split, 1, st, &t.inner[1], &t.has[1]))
            continue;
        int at = DS->nnested;
        for (int k = 0; k < DS->nnested; k++)
            if (same_nested(&DS->nested[k], &t)) { at = k; break; }
        return nested_proved(DS, D, &t, at);
    }
    return 0;
}

/* DeadEnds.is_dead: the plain closure, then some splits, by the search's history. */
static int dead_end(const Rules *R, DeadState *DS, const Pos *p) {
    const DeadRules *D = &R->dead;
    Start st;
    uint8_t uses[64] = {0};
    Pos up;
    if (R->face_down) {                                   /* DeadEnds.face_up */
        up = *p;
        for (int t = R->T0; t < R->T0 + R->nt; t++)
            for (int j = 0; j < up.len[t]; j++) up.c[t][j] &= 63;
        p = &up;
    }
    start_of(R, p, &st);
    if (D->anything) {                    /* host splits, only at the search's start: no ``uses`` after it */
        int at_start = !DS->alive;
        if (!closure(R, p, (const uint8_t (*)[3])D->pair, NULL, 0, at_start ? uses : NULL, &st, NULL, NULL))
            return 1;
        DS->alive++;
        return at_start && hosts_lost(R, p, uses, &st);
    }
    if (!closure(R, p, (const uint8_t (*)[3])D->pair, NULL, 0, uses, &st, NULL, NULL)) return 1;
    if (kings_lost(R, DS, p, uses, &st)) return 1;
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
        remember(DS->killers, &DS->nkillers, D->killers, &s, sizeof s, at);
        return 1;
    }
    return nested_lost(R, DS, p, splits, n, &st);
}

/* ------------------------------------------------------------------ the search */

/* A successor made and not yet asked for (offer): its key's slot in the tables is fetched
 * while the next one is made, so that asking finds it in the cache. */
typedef struct {
    Pos q;
    Facts f;
    Plan m[MAXMOVES];
    int nm, count, n;                 /* moves, the moves they count for, the key's bytes */
    uint8_t key[KEYBUF];
    uint64_t h;                       /* the hash the tables look the key up by */
} Child;

/* The kernel's context: the rules, the dead-end test's memory, the loop expanding. */
typedef struct {
    Rules R;
    DeadState dead_state;             /* the dead-end test's memory, when in C */
    Loop *L;                          /* the loop of the expansion under way */
    Child made[2];                    /* the successor waiting to be asked, and the next */
} Search;

/* A child pushed (loop_child) and its position stored: 0, or -1 out of memory. */
static int push_child(Search *S, uint32_t parent, const Plan *m, int nm, uint32_t depth,
                      const Pos *p, double value, int64_t *won) {
    uint8_t *slot;
    if (loop_child(S->L, parent, m, nm, depth, value, won, &slot)) return -1;
    if (slot) encode(&S->R, p, slot);
    return 0;
}

/* The loop's KeyOf (pooled proofs only: native.py pools none for this family). */
static int key_of_slot(void *S, const uint8_t *slot, uint8_t *key) {
    Pos p;
    decode(&((Search *)S)->R, slot, &p);
    return key_of(&((Search *)S)->R, &p, key);
}

/* ------------------------------------------------------------------ one expansion */

/* The position expanded and what each successor needs of it. */
typedef struct {
    const Pos *p;
    uint32_t node, depth;
    int settled;                      /* no safe card in it (InterlockExpander._settled_moves) */
    int64_t won;
    int error;                        /* -1 the loop failed (L->error, or out of memory), -2 out of memory, -3 too many moves */
    Child *waiting;                   /* the successor made and not yet asked for, or NULL */
} Ctx;

/* The hash the tables look ``key`` up by: loop_admit_turned's, with any count, where the
 * search keeps turn dominance. */
static uint64_t lookup_hash(const Rules *R, uint8_t *key, int n) {
    if (!R->turns) return hash_bytes(key, n);
    uint8_t w = key[n - 1];
    key[n - 1] = ANY_COUNT;
    uint64_t h = hash_bytes(key, n);
    key[n - 1] = w;
    return h;
}

/* _Search.expand_next for the successor waiting (x->waiting): its key asked, and the child
 * pushed if new. 1 once won or failed. */
static int ask(Search *S, Ctx *x) {
    const Rules *R = &S->R;
    Child *c = x->waiting;
    x->waiting = NULL;
    int ok = R->turns ? loop_admit_turned(S->L, c->key, c->n, R->turns) : loop_admit_hashed(S->L, c->key, c->n, c->h);
    if (ok < 0) { x->error = -1; return 1; }
    if (!ok) return 0;
    if (push_child(S, x->node, c->m, c->nm, x->depth + (uint32_t)c->count, &c->q, score(R, &c->q, &c->f), &x->won)) {
        x->error = -2;
        return 1;
    }
    return x->won >= 0;
}

/* The successor not waiting to be asked for, to be made next. */
static inline Child *next_child(Search *S, const Ctx *x) {
    return x->waiting == &S->made[0] ? &S->made[1] : &S->made[0];
}

/* The next successor's position, a copy of ``from`` to make it in, in place. */
static inline Pos *child_of(Search *S, const Ctx *x, const Pos *from) {
    Pos *q = &next_child(S, x)->q;
    *q = *from;
    return q;
}

/* GenericExpander.scored for one successor before settling, made in child_of's position:
 * ``src`` is the pile the cards left, -1 if the foundations changed. The successor is made
 * and its key's slot fetched, then the one made before it asked for (ask): the same
 * successors asked in the same order, each slot fetched while the next successor is made.
 * 1 once won or failed. */
static int offer(Search *S, Ctx *x, Moves *mv, int src) {
    const Rules *R = &S->R;
    if (x->waiting) loop_prefetch_key(S->L, x->waiting->h);    /* its slot is fetched by now */
    Child *c = next_child(S, x);
    Pos *q = &c->q;
    facts_of(R, q, &c->f);
    if (src < 0 || !x->settled || may_expose(R, q, src, &c->f)) settle(R, q, mv, &c->f);
    if (mv->over) { x->error = -3; return 1; }
    c->n = key_of(R, q, c->key);
    c->h = lookup_hash(R, c->key, c->n);
    loop_prefetch(S->L, c->h);
    memcpy(c->m, mv->m, (size_t)mv->n * sizeof(Plan));
    c->nm = mv->n;
    c->count = mv->count;
    if (x->waiting && ask(S, x)) return 1;
    x->waiting = c;
    return 0;
}

/* One move of moves.plans: ``n`` cards from ``src`` to ``dst``. */
static int offer_move(Search *S, Ctx *x, int src, int dst, int n, int to_foundation) {
    Pos *q = child_of(S, x, x->p);
    Moves mv;
    mv.n = mv.count = mv.over = 0;
    move_cards(q, src, dst, n);
    if (src >= S->R.T0 && src < S->R.T0 + S->R.nt) reveal(&S->R, q, src);
    mv_add(&mv, src, dst, n);
    return offer(S, x, &mv, to_foundation ? -1 : src);
}

static int cmp_pair(const void *a, const void *b) {
    const uint8_t *u = a, *v = b;
    return u[0] != v[0] ? u[0] - v[0] : u[1] - v[1];
}

/* stock.play_home: ``chain`` from the reserve onto foundation ``f``, then pile ``a``'s top (-1: none). */
static int offer_home(Search *S, Ctx *x, const uint8_t *chain, int k, int f, int a) {
    const Rules *R = &S->R;
    Pos *q = child_of(S, x, x->p);
    Moves mv;
    mv.n = mv.count = mv.over = 0;
    for (int i = 0; i < k; i++) {
        turn_up(R, q, chain[i], &mv);
        move_cards(q, R->waste, f, 1);
        mv_add(&mv, R->waste, f, 1);
    }
    if (a >= 0) {
        move_cards(q, a, f, 1);
        mv_add(&mv, a, f, 1);
    }
    return offer(S, x, &mv, -1);
}

/* stock.play_bridge: ``chain`` from the reserve onto pile ``b`` (play_off), then the unit of
 * ``n`` cards of pile ``a`` onto it. */
static int offer_bridge(Search *S, Ctx *x, const uint8_t *chain, int k, int b, int a, int n) {
    const Rules *R = &S->R;
    Pos *q = child_of(S, x, x->p);
    Moves mv;
    mv.n = mv.count = mv.over = 0;
    uint8_t order[MAXH];
    int size = cycle_of(R, q, order), now = q->len[R->waste];
    for (int j = 0; j < k; j++) {
        int card = chain[j], i;
        if (now && order[now - 1] == card) i = now - 1;
        else {
            for (i = now; i < size && order[i] != card; i++) ;
            if (i < size) mv_turns(R, &mv, i + 1 - now);
            else {
                for (i = 0; i < size && order[i] != card; i++) ;
                mv_turns(R, &mv, size - now);
                redeal(R, q, &mv);
                mv_turns(R, &mv, i + 1);
            }
        }
        mv_add(&mv, R->waste, b, 1);
        memmove(order + i, order + i + 1, size - i - 1);
        size--;
        now = i;
    }
    set_reserve(R, q, order, size, now);
    int s = q->len[a] - n;
    memcpy(q->c[b] + q->len[b], chain, k);
    q->len[b] += k;
    memcpy(q->c[b] + q->len[b], q->c[a] + s, n);
    q->len[b] += n;
    q->len[a] = (uint8_t)s;
    mv_add(&mv, a, b, n);
    return offer(S, x, &mv, a);
}

/* PatienceExpander._targets on the tableau, for a card off the waste: does uncovered
 * tableau pile ``t`` take card ``c`` (onto its top card, or, empty and not gone, as the
 * head of a group there)? Uncovered first: a covered pile's top may be face down, a byte
 * past the rows of ``fits``. */
static int takes_card(const Rules *R, const Pos *p, int t, int c) {
    if (!uncovered(R, p, t)) return 0;
    return p->len[t] ? R->fits[top_of(p, t)][c] != 0 : R->head[c] && !R->gone[t];
}

/* Turn ``R->draw`` cards of the stock onto the waste, or turn the waste over once the stock is
 * empty (patience.py's apply_legal), recording the move. */
static void turn_or_redeal(const Rules *R, Pos *p, Moves *mv) {
    int st = R->stock, w = R->waste, s = p->len[st];
    if (s) {
        int k = s < R->draw ? s : R->draw;
        for (int j = 0; j < k; j++) p->c[w][p->len[w]++] = p->c[st][s - 1 - j] & 63;
        p->len[st] = (uint8_t)(s - k);
        if (mv->n && mv->m[mv->n - 1].src == st && mv->m[mv->n - 1].n < 255) {
            mv->m[mv->n - 1].n++;
            mv->count++;
        } else mv_turns(R, mv, 1);
    } else {
        int n = p->len[w];
        for (int j = 0; j < n; j++) p->c[st][j] = p->c[w][n - 1 - j] | 64;
        p->len[st] = (uint8_t)n;
        p->len[w] = 0;
        redeal(R, p, mv);
    }
}

/* stock.waste_plays with stock._walk, for the general successors: turn through the stock
 * (and redeal) until the stock and waste are back as they were, and after each turn that
 * leaves a card on the waste, play it to each place PatienceExpander._targets gives it:
 * its foundation (an Ace the first empty one; ``want``: by card, the foundation it goes on
 * next), then each uncovered tableau pile it fits (an empty one that is not gone, where the
 * card may head a group there). */
static void walk_plays(Search *S, Ctx *x, const Facts *f, const int8_t *want) {
    const Rules *R = &S->R;
    const Pos *p = x->p;
    int st = R->stock, w = R->waste, steps = p->len[st] + p->len[w] + 2;
    Pos q = *p;
    Moves turns;
    turns.n = turns.count = turns.over = 0;
    for (int i = 0; i < steps; i++) {
        int turned = q.len[st] != 0;
        if (!turned && !q.len[w]) return;
        turn_or_redeal(R, &q, &turns);
        if (q.len[st] == p->len[st] && q.len[w] == p->len[w] && !memcmp(q.c[st], p->c[st], q.len[st])
                && !memcmp(q.c[w], p->c[w], q.len[w]))
            return;                                /* back where it started */
        if (!turned || !q.len[w]) continue;
        int c = top_of(&q, w);
        int home = (c & 15) == 1 ? f->first_empty : want[c];
        for (int t = R->T0 - 1; t < R->T0 + R->nt; t++) {   /* T0 - 1: its foundation first */
            int dst = t;
            if (t < R->T0) {
                if (home < 0) continue;
                dst = home;
            } else if (!takes_card(R, &q, t, c)) continue;
            Pos *child = child_of(S, x, &q);
            Moves mv;
            moves_copy(&mv, &turns);
            move_cards(child, w, dst, 1);
            mv_add(&mv, w, dst, 1);
            if (offer(S, x, &mv, -1)) return;
        }
    }
}

/* InterlockExpander._settled_moves (through _sourced), in its order: moves.plans(every=False)
 * (tableau tops home, runs between uncovered piles by source, destination and count,
 * dropdowns), then bridges.home_bridges, then bridges.bridges; each successor offered as
 * it comes, until one wins. */
static void make_children(Search *S, Ctx *x) {
    const Rules *R = &S->R;
    const Pos *p = x->p;
    Facts f;
    facts_of(R, p, &f);
    int card, src;
    x->settled = !R->plain && !safe_card(R, p, &f, &card, &src);   /* plain: settle every child */
    int T0 = R->T0, T1 = R->T0 + R->nt;
    int givers[MAXP], ng = 0;
    for (int t = T0; t < T1; t++)
        if (p->len[t] && uncovered(R, p, t)) givers[ng++] = t;
    int8_t want[64];                               /* foundation_wants */
    memset(want, -1, sizeof want);
    for (int i = R->F0; i < R->F0 + R->nf; i++)
        if (p->len[i] && (top_of(p, i) & 15) != KING) want[top_of(p, i) + 1] = (int8_t)i;
    int waste = R->plain && R->stock >= 0 && p->len[R->waste] ? R->waste : -1;   /* plays as a pile */
    for (int g = 0; g <= ng; g++) {
        int s = g < ng ? givers[g] : waste;
        if (s < 0) break;
        int c = top_of(p, s);
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
    if (waste >= 0) {                              /* the waste's card to the tableau */
        int c = top_of(p, waste);
        for (int t = T0; t < T1; t++)
            if (takes_card(R, p, t, c) && offer_move(S, x, waste, t, 1, 0)) return;
    }
    for (int d = 0; d < R->ndrop; d++) {           /* moves.dropdowns */
        int t = R->drop[d][0], a = R->drop[d][1], b = R->drop[d][2];
        if (!p->len[t] || !p->len[a] == !p->len[b]) continue;
        int y = p->len[a] ? a : b, n = p->len[y], under = top_of(p, t);
        if (uncovered(R, p, y) && under < 64 && R->fits[under][p->c[y][0]] && run_length(R, p->c[y], n) == n)
            if (offer_move(S, x, y, t, n, 0)) return;
    }
    if (R->plain) {
        if (R->stock >= 0) walk_plays(S, x, &f, want);
        return;
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
            if (nkings < 0) {                       /* the reserve's heads, in turning order */
                nkings = 0;
                for (int i = 0; i < size; i++) if (R->head[order[i]] && nkings < 4) kings[nkings++] = order[i];
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

/* Every successor offered, the last one made asked for too. */
static void expand_children(Search *S, Ctx *x) {
    make_children(S, x);
    if (x->waiting && !x->error && x->won < 0) ask(S, x);
}

/* The dead-end test (DeadEnds.is_dead, as PatienceExpander.expand asks it) of the popped
 * position (``slot``, still readable): none in a probe that skips it, the test called back
 * in its place (the loop's dead_hook), or the one in C; 1 dead, 0 not, -1 failed. */
static int is_dead(Search *S, const uint8_t *slot, const Pos *p) {
    Loop *L = S->L;
    if (L->skip_dead_ends) return 0;
    if (L->dead_hook) return L->dead_hook(L->hook_arg, slot);
    if (S->R.dead.on) return dead_end(&S->R, &S->dead_state, p);
    return 0;
}

/* _Search.expand_next with InterlockExpander.scored: the won node, EXPANDED if none, SKIPPED
 * or FAILED (loop.h). */
static int64_t expand(void *context, Loop *L, uint32_t *depth_out) {
    Search *S = context;
    const Rules *R = &S->R;
    S->L = L;
    Entry e;
    uint8_t key[KEYBUF];
    int next = loop_next(L, &e, key_of_slot, S, key);
    if (next <= 0) return next ? FAILED : SKIPPED;
    Node node = L->nodes[e.node];
    Pos p;
    const uint8_t *popped = loop_position(L, e.node);      /* readable until the next store */
    decode(R, popped, &p);
    if (loop_release_slot(L, e.node)) return FAILED;
    *depth_out = node.depth;
    int dead = is_dead(S, popped, &p);
    if (dead < 0) return FAILED;
    Ctx x = {&p, e.node, node.depth, 0, -1, 0, NULL};
    if (!dead) expand_children(S, &x);
    if (x.error == -3) L->error = "search_core: more moves from one position than it holds";
    if (x.error) return FAILED;
    return kernel_expanded(L, x.won);
}

/* ------------------------------------------------------------------ the kernel's table */

static uint32_t le32(const uint8_t *b) {
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* The dead-end tables (deadends.py's DeadEnds): pair, 64 x 3 bytes; virtuals, 3 bytes; then
 * twin, killers, killer_tries, scout, plain_first, first_depth, never_home, king_depth,
 * nested_tries, nest_scout and patience, 4 bytes each. */
#define DEAD_BYTES (192 + 3 + 11 * 4)

static const char *load_dead(DeadRules *D, const uint8_t *b) {
    memcpy(D->pair, b, 192);
    memcpy(D->virtuals, b + 192, 3);
    const uint8_t *n = b + 195;
    uint32_t twin = le32(n), killers = le32(n + 4), tries = le32(n + 8), scout = le32(n + 12),
             plain = le32(n + 16), first = le32(n + 20), never = le32(n + 24),
             kings = le32(n + 28), nested = le32(n + 32), nest_scout = le32(n + 36),
             patience = le32(n + 40);
    if (twin > 63 || killers < 1 || killers > 16 || tries > 64 || scout < 1 || scout > 1u << 30 ||
            plain > 1u << 30 || first > 2 || never < KING + 1 || never > 15 || kings < 1 || kings > 4 ||
            nested > 16 || nest_scout < 1 || nest_scout > 1u << 30 || patience > 1u << 30)
        return "search_core: malformed dead-end tables";
    for (int i = 0; i < 192; i++)
        if (D->pair[i / 3][i % 3] >= 64) return "search_core: malformed dead-end tables";
    for (int i = 0; i < 3; i++)
        if (D->virtuals[i] >= 64) return "search_core: malformed dead-end tables";
    D->twin = (int)twin; D->killers = (int)killers; D->killer_tries = (int)tries; D->scout = (int)scout;
    D->plain_first = (int)plain; D->first_depth = (int)first; D->never_home = (int)never;
    D->king_depth = (int)kings; D->nested_tries = (int)nested; D->nest_scout = (int)nest_scout;
    D->patience = (int)patience;
    D->on = 1;
    return NULL;
}

/* The rules, as native.py's pack_rules packs them: 5 bytes (the piles, the cards, whether the
 * dead-end test runs here, the kind of successors: bit 0 ``plain``, bit 1 ``yukon``, bit 2
 * ``anything``, bit 3 ``face_down``, bit 4 ``safe_tops``; the cards a turn of the stock draws,
 * 0 for no stock);
 * layout, 7 bytes a pile (its kind: 0 foundation, 2 tableau, 3 stock, 4 waste, each kind in
 * one run, one stock and one waste, or with ``plain`` and no draw, neither; its two covering
 * piles; gone once empty; a back pile; the two piles it covers; 0xff for none); fits, 64 x
 * 64 bytes; heads, 64 bytes; safe, 12 bytes (by suit: the two suits of the other colour,
 * then the other suit of its colour); then, with the dead-end test, its tables (load_dead).
 * Bridges draw one card a turn, the general successors' walk two or more. The weights: the
 * 9 of native.py's NativeSearch.weight_names. */
static const char *load(void *context, const uint8_t *b, size_t size, const double *w) {
    Search *S = context;
    Rules *R = &S->R;
    if (size < 5) return "search_core: interlock rules of 5 bytes at least";
    int np = b[0], total = b[1], dead_on = b[2], kind = b[3], draw = b[4];
    if (np < 1 || np > MAXP || dead_on > 1 || kind > 31 || (kind & 16 && !(kind & 1)))
        return "search_core: 1 to 40 piles, the dead-end test on or off, a known kind of successors";
    if (size != 5 + 7 * (size_t)np + 64 * 64 + 64 + 12 + (dead_on ? DEAD_BYTES : 0))
        return "search_core: interlock rules of the wrong size for their piles";
    R->plain = kind & 1;
    R->yukon = kind >> 1 & 1;
    R->dead.anything = kind >> 2 & 1;
    R->face_down = kind >> 3 & 1;
    R->safe_tops = kind >> 4 & 1;
    R->draw = draw;
    R->turns = R->plain && draw > 1 && draw <= MOST_TURNS ? draw : 0;   /* keys.turns_of, search.py */
    if (R->plain ? draw == 1 || draw > 52 : draw != 1 || R->face_down)
        return "search_core: bridges draw one card a turn, the general successors none or two or more";
    const uint8_t *L = b + 5, *ft = L + 7 * np, *hd = ft + 64 * 64, *sf = hd + 64, *dt = sf + 12;
    int first[5] = {-1, -1, -1, -1, -1}, count[5] = {0};
    for (int i = 0; i < np; i++) {
        int k = L[7 * i];
        if (k > 4 || k == 1 || (count[k] && first[k] + count[k] != i)) return "search_core: a malformed layout";
        if (!count[k]) first[k] = i;
        count[k]++;
        for (int j = 1; j < 7; j++)
            if (j != 3 && j != 4 && L[7 * i + j] != 0xff && L[7 * i + j] >= np) return "search_core: a malformed layout";
        if ((L[7 * i + 1] == 0xff) != (L[7 * i + 2] == 0xff)) return "search_core: a malformed layout";
    }
    int reserve = draw ? 1 : 0;
    if (!count[0] || !count[2] || count[3] != reserve || count[4] != reserve) return "search_core: a malformed layout";
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
        } else if (tableau && l[4]) return "search_core: a malformed layout";   /* a back pile has its covers */
    }
    memcpy(R->fits, ft, sizeof R->fits);
    for (int c = 0; c < 64; c++) {             /* stock.hosts_in_order: ascending */
        R->nfit[c] = 0;
        for (int over = 0; over < 64; over++)
            if (R->fits[c][over]) {
                if (R->nfit[c] == 4) return "search_core: malformed fits or safe tables";
                R->fit_order[c][R->nfit[c]++] = (uint8_t)over;
            }
        R->head[c] = hd[c] != 0;
    }
    if (kernel_colours(sf, R->other, R->same)) return "search_core: malformed fits or safe tables";
    R->w_home = w[0]; R->w_block = w[1]; R->w_urgent = w[2]; R->w_buried = w[3]; R->w_down = w[4];
    R->w_empty = w[5]; R->w_covered = w[6]; R->w_reserve = w[7]; R->w_unsorted = w[8];
    if (total < 1 || total > 52) return "search_core: one deck";
    R->total = total;
    R->slot = R->np + total + 4;
    for (int i = 0; i < np; i++) R->dead.is_back[i] = L[7 * i] == 2 && L[7 * i + 4];
    if (!dead_on) return NULL;
    const char *refused = load_dead(&R->dead, dt);
    S->dead_state.kings_missed = R->dead.patience;    /* the King split not yet tried: as if failed */
    return refused;
}

static size_t slot_bytes(const void *context) { return (size_t)((const Search *)context)->R.slot; }

/* A position as native.py packs it (its ``encode``: a foundation as its top card, any other
 * pile as its length and its cards, then the redeals, 4 bytes little-endian), checked before
 * decode() reads it; the slot's encoding is the packed one. */
static int read_position(const void *context, const uint8_t *b, size_t n, uint8_t *slot) {
    const Rules *R = &((const Search *)context)->R;
    size_t at = 0;
    int cards = 0;
    uint8_t seen[64] = {0};
    if (n > (size_t)R->slot) return -1;
    for (int i = 0; i < R->np; i++) {            /* check before decode reads it */
        if (at >= n) return -1;
        if (i >= R->F0 && i < R->F0 + R->nf) {
            int top = b[at++];
            if (top && !kernel_is_card(top, 64)) return -1;
            for (int r = 1; top && r <= (top & 15); r++) {
                if (seen[(top & 0x30) | r]) return -1;
                seen[(top & 0x30) | r] = 1;
            }
            cards += top & 15;
            continue;
        }
        int size = b[at++];
        if (size > MAXH || at + size > n) return -1;
        for (int j = 0; j < size; j++)
            if (!kernel_is_card(b[at + j], i == R->stock || (R->face_down && i >= R->T0 && i < R->T0 + R->nt) ? 128 : 64)
                    || seen[b[at + j] & 63])
                return -1;
            else seen[b[at + j] & 63] = 1;
        cards += size;
        at += size;
    }
    if (at + 4 != n || cards > R->total) return -1;
    memcpy(slot, b, n);
    return 0;
}

static size_t write_position(const void *context, const uint8_t *slot, uint8_t *out) {
    const Rules *R = &((const Search *)context)->R;
    Pos p;
    decode(R, slot, &p);
    return (size_t)encode(R, &p, out);
}

static int key_of_position(const void *context, const uint8_t *slot, uint8_t *key) {
    return key_of_slot((void *)context, slot, key);
}

static double score_of_position(const void *context, const uint8_t *slot) {
    const Rules *R = &((const Search *)context)->R;
    Pos p;
    Facts f;
    decode(R, slot, &p);
    facts_of(R, &p, &f);
    return score(R, &p, &f);
}

/* The dead-end test in C, with this search's memory of the positions asked before (as
 * DeadEnds.is_dead keeps it); no position is dead where the rules carry no test. */
static int dead_position(void *context, const uint8_t *slot) {
    Search *S = context;
    if (!S->R.dead.on) return 0;
    Pos p;
    decode(&S->R, slot, &p);
    return dead_end(&S->R, &S->dead_state, &p);
}

static const KernelLimit limits[] = {{"MAX_PILES", MAXP}, {NULL, 0}};

const Kernel interlock_kernel = {
    .name = "interlock",
    .move_bytes = 3,
    .most_moves = MAXMOVES,
    .key_bytes = KEYBUF,
    .weights = 9,
    .context_bytes = sizeof(Search),
    .load = load,
    .slot_bytes = slot_bytes,
    .read = read_position,
    .write = write_position,
    .key = key_of_position,
    .score = score_of_position,
    .expand = expand,
    .dead = dead_position,
    .limits = limits,
};
