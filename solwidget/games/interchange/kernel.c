/* The Interchange family's kernel: InterchangeExpander's successors (expander.py), score
 * (solver/heuristics.py) and key (solver/keys.py's _cycle_key), in C, for the compiled
 * search (solver/search_core.c, kernel.h's table), for the games where expander.fast_path holds
 * (Triple and Quadruple Interchange, and variants of their shape).
 *
 * It is a second writing of what those Python files say, not a source of rules: every
 * table it plays by (which card goes on which, what an empty pile takes, the pile layout,
 * the decks, the score's weights) is packed by native.py's ``pack_rules`` from the
 * game, and it expands the same positions in the same order as the Python search: the
 * same successors (moves.py's plans with every=False, then the home bridges and the
 * bridges of reductions.py worked out on the reserve's turning cycle, each followed by the
 * same safe moves home), the same keys asked in the same order (a child's key asked
 * before the child is made where expander.py's _asked and _homed ask it), the same
 * scores (heuristics.py's patience score, a tableau move's or bridge's made from its
 * parent's by the two piles that change, as moves_from does), the same frontier, draws,
 * tables, evictions, trims and pooled proofs (search.py's _Closure: its two sets of bytes
 * keys, held as search_core's KeyPools). tests/test_kernels.py and
 * tests/test_native_interchange.py compare the two
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
 * Interchange's one pass (and the variants that limit the redeals) has no bridges: its
 * search is InterchangeFamilyExpander's, the general successors (``limit``, the redeals
 * allowed, 0 or more; the bridged games have -1, unlimited): moves.py's plans(every=True)
 * with PatienceExpander._moves' key-equal duplicates skipped (a card to the first empty
 * foundation, a run to the first empty pile and never a whole pile there), the waste's card
 * played as any card, then stock.py's waste plays (_draw_one: each card turning can bring
 * up, played where PatienceExpander._targets lets it go, after a redeal while one is left),
 * each child settled (autoplay.py: the same safe moves as the bridged games'), and
 * patience_key's plain key (the foundations' and the sorted tableau's parts, the tableau's
 * joined, then the stock, the waste and the redeals made). Its dead-end test adds rule S
 * (reductions.py) once no redeal is left.
 *
 * A node's moves are 16-bit codes: TURNS | k for k turns of the stock, REDEAL, or
 * (source << 9) | (destination << 4) | cards for a move between piles; native.py maps
 * them back to the engine's Move objects (line()).
 *
 * Scores are sums of counts times weights. native.py uses this core only when every weight
 * is a multiple of 1/1024 below 2^20: then every partial sum is exact in a double, so any
 * order of adding gives the Python score to the last bit. A priority adds the depth weight
 * times the depth to it as search.py does, in the same two rounded steps (loop.h's
 * loop_priority), so the depth weight may be any double. */

#include "../../solver/kernel.h"

#define MAXP 32          /* piles */
#define MAXH 64          /* cards in one tableau pile; a multiple of CHUNK (copy_cards reads rows) */
#define MAXR 255         /* cards in the stock and waste */
#define MAXCODES 1024    /* move codes of one successor */
#define KEYBUF (256 + CHUNK) /* a key (at most 255 bytes), and what its hash or copy_cards reads past it */
#define FACE_DOWN 64
#define TURNS 0x8000u    /* TURNS | k: k turns of the stock */
#define REDEAL 0x4000u   /* the waste turned over to the stock */
#define PLAY(src, dst, n) ((uint16_t)((src) << 9 | (dst) << 4 | (n)))

/* ------------------------------------------------------------------ the rules' tables */

typedef struct {
    int np, nf, nt, F0, T0, S, W;     /* piles: the foundations, the tableau, stock, waste */
    uint8_t fits[128][128];           /* fits[under][over]: over may be built on under */
    uint8_t fits_on[128][64];         /* the cards that fit on a card, ascending (stock.hosts_in_order) */
    uint8_t nfits[128];
    uint8_t empty_takes[128];         /* an empty tableau pile takes a run headed by the card */
    int any_to_empty;                 /* it takes every card (DeadEnds.any_to_empty) */
    uint64_t room;                    /* the rank-14 bits of the Kings it takes (DeadEnds.room) */
    uint8_t builds[128][128];         /* the build's fits (face-down or not): the unsorted weight's */
    int decks, total;
    double w_home, w_block, w_urgent, w_buried, w_down, w_empty, w_reserve, w_unsorted;
    int slot;                         /* bytes of an encoded position, at most */
    int limit;                        /* -1: the bridged successors; else the general ones, these redeals allowed */
} Rules;

/* The piles but the stock and waste: a foundation as c[f][0], its top (len 0 or 1). */
typedef struct { uint8_t len[MAXP]; uint8_t c[MAXP][MAXH]; } Pos;
/* expander.py's reserve: ``order`` the waste bottom to top then the stock from its top,
 * ``now`` cards of it on the waste, ``redeals`` made so far. */
typedef struct { int olen, now; uint32_t redeals; uint8_t order[MAXR + 1]; } Reserve;

/* ------------------------------------------------------------------ the search */

/* The kernel's context: the rules, and the loop of the expansion under way. */
typedef struct {
    Rules R;
    Loop *L;
} Search;

static int encode(const Rules *R, const Pos *p, const Reserve *rv, uint8_t *b);

/* A child pushed (loop_child) and its position, with its reserve, stored: 0, or -1 out of
 * memory. */
static int push_child(Search *S, uint32_t parent, const uint16_t *m, int nm, uint32_t depth,
                      const Pos *p, const Reserve *rv, double value, int64_t *won) {
    uint8_t *slot;
    if (loop_child(S->L, parent, m, nm, depth, value, won, &slot)) return -1;
    if (slot) encode(&S->R, p, rv, slot);
    return 0;
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
        copy_cards(k, p->c[t], m);
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

/* patience_key's plain key (the general successors): the head, the tableau piles sorted as
 * their bytes alone (a prefix first) and joined by 0xff, then 0xfe, the stock as it lies
 * (the reserve's cards past the waste, from the bottom, face down), 0xff, the waste, 0xfe
 * and the redeals made (one byte: bytes(State.extra)). */
static int plain_key(const Rules *R, const Pos *p, const Reserve *rv, uint8_t *k) {
    uint8_t *start = k;
    k += head_of(R, p, k);
    int order[MAXP];
    for (int i = 0; i < R->nt; i++) {
        int t = R->T0 + i, j = i;
        while (j > 0) {
            int u = order[j - 1], lu = p->len[u], lt = p->len[t], m = lu < lt ? lu : lt, c = 0;
            for (int x = 0; x < m && !c; x++) c = p->c[u][x] - p->c[t][x];
            if (c < 0 || (!c && lu <= lt)) break;
            order[j] = u;
            j--;
        }
        order[j] = t;
    }
    for (int i = 0; i < R->nt; i++) {
        if (i) *k++ = 0xff;
        copy_cards(k, p->c[order[i]], p->len[order[i]]);
        k += p->len[order[i]];
    }
    *k++ = 0xfe;
    for (int i = rv->olen - 1; i >= rv->now; i--) *k++ = rv->order[i] | FACE_DOWN;
    *k++ = 0xff;
    memcpy(k, rv->order, rv->now);
    k += rv->now;
    *k++ = 0xfe;
    *k++ = (uint8_t)rv->redeals;
    memset(k, 0, 8);
    return (int)(k - start);
}

/* _cycle_key's bytes (the bridged successors), else the plain key. */
static int key_of(const Rules *R, const Pos *p, const Reserve *rv, uint8_t *k) {
    if (R->limit >= 0) return plain_key(R, p, rv, k);
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

/* _sweep: rule L for the tableau, one pass over the piles, each bound lowered to the lowest
 * card found to leave (``bound``, ``asked`` and ``hosts`` updated). Its answers: whether a
 * bound fell, the types found on top (added to *on_top) and whether a pile may now empty. */
static inline int sweep(int nt, uint8_t (*col)[MAXH], uint8_t (*run)[MAXH], uint64_t (*tops)[MAXH + 1],
                        int *bound, int *asked, uint64_t *hosts, uint64_t homeable, uint64_t available,
                        uint64_t *on_top, int *emptied) {
    int lowered = 0;
    for (int k = 0; k < nt; k++) {
        int b = bound[k];
        if (!b || (asked[k] && !((homeable >> col[k][b - 1] & 1) || (available & hosts[k])))) continue;
        int i = b - 1;                                   /* _lowest_leaver */
        uint64_t h = 0;
        while (i >= 0 && i + run[k][i] >= b - 1) {
            int c = col[k][i];
            if ((i == b - 1 && (homeable >> c & 1)) || (available >> (c + 1) & 1)) { b = i; h = 0; }
            else h |= 2ull << c;
            i--;
        }
        hosts[k] = h; asked[k] = 1;
        if (b < bound[k]) {
            bound[k] = b;
            *on_top |= tops[k][b ? b - 1 : 0];
            lowered = 1;
            *emptied |= !b;
        }
    }
    return lowered;
}

/* The tables both dead-end tests read of the tableau: each pile's card types (``col``), the
 * run below each card (``run``: the cards on it in sequence), the types at or above each
 * card (``tops``), the bounds (every card still to leave) and none asked yet. The types of
 * the tableau's cards; *empty: whether a pile is empty. */
static inline uint64_t tableau_tables(const Rules *R, const Pos *p, uint8_t (*col)[MAXH], uint8_t (*run)[MAXH],
                                      uint64_t (*tops)[MAXH + 1], int *bound, int *asked, int *empty) {
    uint64_t tableau = 0;
    *empty = 0;
    for (int k = 0; k < R->nt; k++) {
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
        *empty |= !n;
    }
    return tableau;
}

static int is_dead(const Rules *R, const Pos *p, const Reserve *rv) {
    uint8_t col[MAXP][MAXH], run[MAXP][MAXH];
    uint64_t tops[MAXP][MAXH + 1], hosts[MAXP];
    int bound[MAXP], asked[MAXP], nt = R->nt, empty;
    uint64_t loose = 0, tableau = tableau_tables(R, p, col, run, tops, bound, asked, &empty);
    for (int i = 0; i < rv->olen; i++) loose |= 1ull << (rv->order[i] & 63);
    uint64_t ready = ready_of(R, p), needed = loose | tableau;
    if (needed & ~homeable_of(ready, needed)) return 1;
    uint64_t room = 0;                                     /* a pile may empty: */
    if (empty) {
        if (R->any_to_empty) return 0;                     /* any card leaves for it */
        room = R->room;                                    /* a King may go there */
    }
    uint64_t exposed = 0, homeable;
    for (int k = 0; k < nt; k++) if (bound[k]) exposed |= tops[k][bound[k] - 1];
    for (;;) {
        homeable = homeable_of(ready, loose | exposed);
        int most = 0;
        for (int k = 0; k < nt; k++) if (bound[k] > most) most = bound[k];
        if (!(needed & ~homeable) && most <= 1) return 0;
        uint64_t available = available_of(exposed | room, loose), on_top = 0;
        int emptied = 0;
        if (!sweep(nt, col, run, tops, bound, asked, hosts, homeable, available, &on_top, &emptied)) break;
        if (emptied) {                                     /* a pile may empty */
            if (R->any_to_empty) return 0;
            room = R->room;
        }
        exposed |= on_top;
    }
    for (int k = 0; k < nt; k++) if (bound[k] > 1) return 1;
    return (needed & ~homeable) != 0;
}

/* _pile_leaves: rule S's pile's top cards that may leave, home or onto a host, taken off
 * ``standing`` (``*n`` cards); the mask of their types. */
static uint64_t pile_leaves(const uint8_t *standing, int *n, uint64_t homeable, uint64_t available) {
    uint64_t gone = 0;
    while (*n && ((homeable >> standing[*n - 1] & 1) || (available >> (standing[*n - 1] + 1) & 1)))
        gone |= 1ull << standing[--*n];
    return gone;
}

/* reductions.DeadEnds.is_dead once no redeal is left (rule S): the stock and waste are one
 * pile, turned a level at a time (one card a turn: a level a card), whose cards leave from
 * its top only; the same relaxation otherwise, step for step as reductions.py takes it. */
static int is_dead_piled(const Rules *R, const Pos *p, const Reserve *rv) {
    uint8_t col[MAXP][MAXH], run[MAXP][MAXH], piled[MAXR + 1], standing[MAXR + 1];
    uint64_t tops[MAXP][MAXH + 1], hosts[MAXP];
    int bound[MAXP], asked[MAXP], nt = R->nt, empty;
    uint64_t in_pile = 0, tableau = tableau_tables(R, p, col, run, tops, bound, asked, &empty);
    for (int i = 0; i < rv->olen; i++) { piled[i] = rv->order[i] & 63; in_pile |= 1ull << piled[i]; }
    uint64_t ready = ready_of(R, p), needed = tableau | in_pile;
    if (needed & ~homeable_of(ready, needed)) return 1;
    uint64_t room = 0;
    if (empty) {
        if (R->any_to_empty) return 0;
        room = R->room;
    }
    uint64_t exposed = 0, left = 0, homeable = 0, available = 0, read_h = 0, read_a = 0, masks_x = 0, masks_room = 0;
    for (int k = 0; k < nt; k++) if (bound[k]) exposed |= tops[k][bound[k] - 1];
    int ns = 0, turned = 0, last = rv->olen, read = 0, masked = 0;
    for (int level = rv->now; level <= last; level++) {       /* _levels, one card a turn */
        while (turned < level) standing[ns++] = piled[turned++];
        left |= pile_leaves(standing, &ns, homeable, available);
        if (!(ns || level == last)) continue;
        if (masked && (exposed | left) == masks_x && room == masks_room && read && homeable == read_h
                && available == read_a)
            continue;
        for (;;) {
            masked = 1; masks_x = exposed | left; masks_room = room;
            homeable = homeable_of(ready, exposed | left);
            int most = 0;
            for (int k = 0; k < nt; k++) if (bound[k] > most) most = bound[k];
            if (!(needed & ~homeable) && most <= 1) return 0;
            available = available_of(available | exposed | room, left);
            int waiting = ns;
            left |= pile_leaves(standing, &ns, homeable, available);
            int changed = ns < waiting;
            if (!(ns || level == last)) break;
            if (!read || homeable != read_h || available != read_a) {
                read = 1; read_h = homeable; read_a = available;
                uint64_t on_top = 0;
                int emptied = 0;
                changed |= sweep(nt, col, run, tops, bound, asked, hosts, homeable, available, &on_top, &emptied);
                if (emptied) {
                    if (R->any_to_empty) return 0;
                    room = R->room;
                }
                exposed |= on_top;
            }
            if (!changed) break;
        }
    }
    if (ns) return 1;
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
    int ok = loop_admit(S->L, key, key_of(R, &q, &r, key));
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
    int ok = loop_admit(S->L, key, key_of(R, q, rq, key));
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
    int ok = loop_admit(S->L, key, x->nhead + tableau_part_two(R, p, x->order, src, dst, key + x->nhead));
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

/* moves.py's ``takes``: by card, the tableau piles holding cards whose top it fits, ascending. */
static void takers(const Rules *R, const Pos *p, uint8_t (*takes)[MAXP], uint8_t *ntakes) {
    memset(ntakes, 0, 128);
    for (int d = R->T0; d < R->T0 + R->nt; d++) {
        if (!p->len[d]) continue;
        int top = p->c[d][p->len[d] - 1];
        for (int i = 0; i < R->nfits[top]; i++) { int c = R->fits_on[top][i]; takes[c][ntakes[c]++] = (uint8_t)d; }
    }
}

/* moves.py's runs from pile ``src`` (its top ``run`` cards in sequence) to the tableau, as
 * (destination, count) by destination then count: onto the piles they fit, and to the
 * first empty pile ``first_t`` where it takes them, never the whole pile. Their number. */
static int runs_from(const Rules *R, const Pos *p, int src, int run, int first_t, uint8_t (*takes)[MAXP],
                     const uint8_t *ntakes, uint8_t (*found)[2]) {
    int size = p->len[src], nf = 0;
    for (int n = 1; n <= run; n++) {
        int card = p->c[src][size - n];
        for (int i = 0; i < ntakes[card]; i++)
            if (takes[card][i] != src) { found[nf][0] = takes[card][i]; found[nf][1] = (uint8_t)n; nf++; }
    }
    if (first_t >= 0) {
        int most = run < size - 1 ? run : size - 1;
        for (int n = 1; n <= most; n++)
            if (R->empty_takes[p->c[src][size - n]]) { found[nf][0] = (uint8_t)first_t; found[nf][1] = (uint8_t)n; nf++; }
    }
    if (nf > 1) qsort(found, nf, 2, cmp_pair);
    return nf;
}

/* The moves of moves.py's plans(every=False), then the home bridges and the bridges, as
 * InterchangeExpander._successors gives them. 0, -2 the loop failed (L->error, or out of memory),
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
    takers(R, p, takes, ntakes);
    for (int src = R->T0; src < R->T0 + R->nt; src++) {
        int size = p->len[src];
        if (!size) continue;
        uint8_t found[MAXP * MAXH][2];
        int nf = runs_from(R, p, src, runs[src], first_empty_t, takes, ntakes, found);
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
            for (int c = 0; c < 64; c++) if (in_reserve[c] && R->empty_takes[c]) starts[nstart++] = c;
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

/* The reserve after the card at ``i`` of its order, turned to the top of the waste, leaves
 * it: ``now`` cards then lie on the waste. */
static void without(Reserve *r, int i) {
    memmove(r->order + i, r->order + i + 1, r->olen - i - 1);
    r->olen--;
    r->now = i;
}

/* PatienceExpander._targets of a card off the waste, in its order: its foundations (an Ace
 * the first empty one), then each tableau pile it fits, the first empty one where an empty
 * pile takes it. */
static int targets(const Rules *R, const Pos *p, int card, int first_f, int first_t, uint8_t *out) {
    int n = 0;
    for (int f = R->F0; f < R->F0 + R->nf; f++)
        if ((card & 15) == 1 ? f == first_f : p->len[f] && p->c[f][0] == card - 1) out[n++] = (uint8_t)f;
    for (int t = R->T0; t < R->T0 + R->nt; t++)
        if (p->len[t] ? R->fits[p->c[t][p->len[t] - 1]][card] : t == first_t && R->empty_takes[card])
            out[n++] = (uint8_t)t;
    return n;
}

/* The card off the waste of reserve ``r`` (its ``now`` cards on the waste, the top one
 * taken) played to each of ``places``, after ``codes``: each child settled and asked. */
static int waste_children(Search *S, Ex *x, const Reserve *r, int card, const uint8_t *places, int n,
                          uint16_t *codes, int nc) {
    const Rules *R = &S->R;
    Pos q;
    for (int i = 0; i < n; i++) {
        int dst = places[i];
        copy_pos(R, &q, &x->p);
        if (dst < R->T0) { q.c[dst][0] = (uint8_t)card; q.len[dst] = 1; }
        else {
            if (q.len[dst] >= MAXH) return -3;
            q.c[dst][q.len[dst]++] = (uint8_t)card;
        }
        codes[nc] = PLAY(R->W, dst, 1);
        int bad = settled_child(S, x, &q, r, codes, nc + 1);
        if (bad || x->won >= 0) return bad;
    }
    return 0;
}

/* InterchangeFamilyExpander._settled_moves, the general successors (``limit`` >= 0), in
 * its order: moves.py's plans(every=True) less PatienceExpander._moves' duplicates (tableau
 * tops home, the waste's card home, runs between tableau piles by source, destination and
 * count, the waste's card to the tableau), then stock.py's waste_plays (_draw_one); each
 * child settled, then asked. 0, or as successors. */
static int general_successors(Search *S, Ex *x) {
    const Rules *R = &S->R;
    Pos *p = &x->p;
    const Reserve *rv = &x->rv;
    int first_f = -1, first_t = -1, bad;
    for (int f = R->F0; f < R->F0 + R->nf; f++) if (!p->len[f]) { first_f = f; break; }
    for (int t = R->T0; t < R->T0 + R->nt; t++) if (!p->len[t]) { first_t = t; break; }
    uint16_t codes[MAXCODES];
    uint8_t places[MAXP];
    Pos q;
    Reserve r;
    int top = rv->now ? rv->order[rv->now - 1] : -1;
    for (int t = R->T0; t <= R->T0 + R->nt; t++) {          /* home: the tableau, then the waste */
        int waste = t == R->T0 + R->nt;
        if (waste ? top < 0 : !p->len[t]) continue;
        int card = waste ? top : p->c[t][p->len[t] - 1];
        if (card & FACE_DOWN) continue;
        for (int f = R->F0; f < R->F0 + R->nf; f++) {
            if ((card & 15) == 1 ? f != first_f : !(p->len[f] && p->c[f][0] == card - 1)) continue;
            copy_pos(R, &q, p);
            copy_reserve(&r, rv);
            q.c[f][0] = (uint8_t)card; q.len[f] = 1;
            if (waste) without(&r, r.now - 1);
            else take(&q, t, 1);
            codes[0] = PLAY(waste ? R->W : t, f, 1);
            if ((bad = settled_child(S, x, &q, &r, codes, 1)) || x->won >= 0) return bad;
        }
    }
    uint8_t takes[128][MAXP], ntakes[128];           /* runs on the tableau */
    takers(R, p, takes, ntakes);
    for (int src = R->T0; src < R->T0 + R->nt; src++) {
        int size = p->len[src];
        if (!size) continue;
        uint8_t found[MAXP * MAXH][2];
        int nf = runs_from(R, p, src, run_length(R, p, src), first_t, takes, ntakes, found);
        for (int i = 0; i < nf; i++) {
            int dst = found[i][0], n = found[i][1];
            if (p->len[dst] + n > MAXH) return -3;
            copy_pos(R, &q, p);
            memcpy(q.c[dst] + q.len[dst], q.c[src] + size - n, n);
            q.len[dst] += (uint8_t)n;
            take(&q, src, n);
            codes[0] = PLAY(src, dst, n);
            if ((bad = settled_child(S, x, &q, rv, codes, 1)) || x->won >= 0) return bad;
        }
    }
    if (top >= 0) {                                  /* the waste's card to the tableau */
        copy_reserve(&r, rv);
        without(&r, r.now - 1);
        int n = 0;
        for (int t = R->T0; t < R->T0 + R->nt; t++)
            if (p->len[t] ? R->fits[p->c[t][p->len[t] - 1]][top] : t == first_t && R->empty_takes[top])
                places[n++] = (uint8_t)t;
        if ((bad = waste_children(S, x, &r, top, places, n, codes, 0)) || x->won >= 0) return bad;
    }
    for (int on = rv->now + 1; on <= rv->olen; on++) {   /* _draw_one: turned up, then played */
        int card = rv->order[on - 1], n = targets(R, p, card, first_f, first_t, places);
        if (!n) continue;
        copy_reserve(&r, rv);
        without(&r, on - 1);
        codes[0] = (uint16_t)(TURNS | (on - rv->now));
        if ((bad = waste_children(S, x, &r, card, places, n, codes, 1)) || x->won >= 0) return bad;
    }
    if (rv->redeals >= (uint32_t)R->limit) return 0;
    int lead = 0;                                    /* a redeal, the stock turned through first */
    if (rv->now != rv->olen) codes[lead++] = (uint16_t)(TURNS | (rv->olen - rv->now));
    codes[lead++] = REDEAL;
    for (int on = 1; on < rv->now; on++) {
        int card = rv->order[on - 1], n = targets(R, p, card, first_f, first_t, places);
        if (!n) continue;
        copy_reserve(&r, rv);
        r.redeals++;
        without(&r, on - 1);
        codes[lead] = (uint16_t)(TURNS | on);
        if ((bad = waste_children(S, x, &r, card, places, n, codes, lead + 1)) || x->won >= 0) return bad;
    }
    return 0;
}

/* DeadEnds.is_dead: rule S once no redeal is left (_waste_is_a_pile), else every reserve
 * card within reach. */
static int dead_test(const Rules *R, const Pos *p, const Reserve *rv) {
    if (R->limit >= 0 && rv->redeals >= (uint32_t)R->limit) return is_dead_piled(R, p, rv);
    return is_dead(R, p, rv);
}

/* reductions.DeadEnds.is_dead of the popped position (``slot``, still readable): here, or
 * the test called back in its place (the loop's dead_hook), or none in a probe that skips
 * it. 1, 0, or -2 failed. */
static int dead_end(Search *S, Ex *x, const uint8_t *slot) {
    Loop *L = S->L;
    if (L->skip_dead_ends) return 0;
    if (L->dead_hook) {
        int dead = L->dead_hook(L->hook_arg, slot);
        return dead < 0 ? -2 : dead;
    }
    return dead_test(&S->R, &x->p, &x->rv);
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
    return R->limit >= 0 ? general_successors(S, x) : successors(S, x);
}

/* The loop's KeyOf (pooled proofs): the key of an encoded position. */
static int key_of_slot(void *S, const uint8_t *slot, uint8_t *key) {
    Pos p; Reserve rv;
    decode(&((Search *)S)->R, slot, &p, &rv);
    return key_of(&((Search *)S)->R, &p, &rv, key);
}

/* _Search.expand_next with InterchangeExpander.scored: the won node, EXPANDED if none,
 * SKIPPED or FAILED (loop.h). */
static int64_t expand(void *context, Loop *L, uint32_t *depth_out) {
    Search *S = context;
    const Rules *R = &S->R;
    S->L = L;
    Entry e;
    uint8_t key[KEYBUF];
    int next = loop_next(L, &e, key_of_slot, S, key);
    if (next <= 0) return next ? FAILED : SKIPPED;
    Node node = L->nodes[e.node];
    Ex x;
    const uint8_t *popped = loop_position(L, e.node);      /* readable until the next store */
    decode(R, popped, &x.p, &x.rv);
    if (loop_release_slot(L, e.node)) return FAILED;
    x.nhead = head_of(R, &x.p, x.head);
    x.won = -1;
    *depth_out = node.depth;
    int dead = dead_end(S, &x, popped);               /* a dead end has no successors */
    if (dead < 0) return FAILED;
    if (!dead) {
        int bad = children(S, &x, e.node, node.depth);
        if (bad == -3) L->error = "search_core: a position beyond this core's bounds";
        if (bad) return FAILED;
    }
    return kernel_expanded(L, x.won);
}

/* ------------------------------------------------------------------ the kernel's table */

/* The rules, as native.py's pack_rules packs them: 5 bytes (foundations, tableau piles,
 * decks, cards, and the successors: 255 the bridged ones, else the general ones with that
 * many redeals allowed; the piles are the foundations, then the tableau, then the stock and
 * the waste); by card, 128 of them, the cards that fit on it, their count first, in the order
 * InterchangeExpander takes them; empty_takes, 128 bytes; builds, 128 x 128 bytes (the
 * build's fits, read by the unsorted weight). The weights: the 8 of heuristics.py (home,
 * blockers, urgent, buried, down, empty, reserve, unsorted). */
static const char *load(void *context, const uint8_t *b, size_t size, const double *w) {
    Rules *R = &((Search *)context)->R;
    if (size < 5) return "search_core: interchange rules of 5 bytes at least";
    int nf = b[0], nt = b[1], decks = b[2], total = b[3];
    R->limit = b[4] == 255 ? -1 : b[4];
    if (nf < 1 || nt < 1 || nf + nt + 2 > MAXP) return "search_core: 1 to 30 foundations and tableau piles";
    if (decks < 1 || total < 1 || total > MAXR || total + nf + nt + 1 > 255 || nf > 4 * decks)
        return "search_core: a key must fit in 255 bytes";
    if (R->limit >= 0 && total + nf + nt + 4 > 255) return "search_core: a key must fit in 255 bytes";
    size_t at = 5;
    for (int under = 0; under < 128; under++) {
        if (at >= size) return "search_core: interchange rules cut short";
        int n = b[at++];
        if (n > 63 || at + (size_t)n > size) return "search_core: fits_on's items are fewer than 64 cards";
        for (int i = 0; i < n; i++) {
            int card = b[at + i];
            if (!kernel_is_card(card, 64)) return "search_core: fits_on holds face-up cards";
            R->fits_on[under][R->nfits[under]++] = (uint8_t)card;
            R->fits[under][card] = 1;
        }
        at += (size_t)n;
    }
    if (size != at + 128 + 128 * 128) return "search_core: interchange rules of the wrong size";
    memcpy(R->empty_takes, b + at, 128);
    R->any_to_empty = 1; R->room = 0;                  /* DeadEnds.any_to_empty and .room */
    for (int c = 0; c < 64; c++)
        if (kernel_is_card(c, 64)) {
            if (!R->empty_takes[c]) R->any_to_empty = 0;
            else if ((c & 15) == 13) R->room |= 1ull << (c + 1);
        }
    if (R->any_to_empty) R->room = 0;                    /* it then answers before reading room */
    memcpy(R->builds, b + at + 128, sizeof R->builds);
    R->nf = nf; R->nt = nt; R->F0 = 0; R->T0 = nf; R->S = nf + nt; R->W = nf + nt + 1; R->np = nf + nt + 2;
    R->decks = decks; R->total = total;
    R->w_home = w[0]; R->w_block = w[1]; R->w_urgent = w[2]; R->w_buried = w[3];
    R->w_down = w[4]; R->w_empty = w[5]; R->w_reserve = w[6]; R->w_unsorted = w[7];
    R->slot = nf + nt + total + 6;
    return NULL;
}

static size_t slot_bytes(const void *context) { return (size_t)((const Search *)context)->R.slot; }

/* A position as native.py packs it (its ``encode``), checked before decode() reads it; the
 * slot's encoding is the packed one. */
static int read_position(const void *context, const uint8_t *b, size_t n, uint8_t *slot) {
    const Rules *R = &((const Search *)context)->R;
    size_t at = (size_t)R->nf;
    if (n > (size_t)R->slot || n < at) return -1;
    for (int f = 0; f < R->nf; f++)
        if (b[f] && !kernel_is_card(b[f], 64)) return -1;
    for (int t = 0; t < R->nt; t++) {                /* check before decode reads it */
        if (at >= n) return -1;
        int size = b[at++];
        if (size > MAXH || at + size > n) return -1;
        for (int j = 0; j < size; j++)
            if (!kernel_is_card(b[at + j], 128)) return -1;
        at += size;
    }
    if (at + 2 > n) return -1;
    int olen = b[at], now = b[at + 1];
    at += 2;
    if (now > olen || at + olen + 4 != n) return -1;
    for (int j = 0; j < olen; j++)
        if (!kernel_is_card(b[at + j], 64)) return -1;
    int cards = olen + (int)(at - R->nf - R->nt - 2);  /* the game's cards, no more: */
    for (int f = 0; f < R->nf; f++) cards += b[f] & 15;    /* so the key fits in 255 bytes */
    if (cards != R->total) return -1;
    memcpy(slot, b, n);
    return 0;
}

static size_t write_position(const void *context, const uint8_t *slot, uint8_t *out) {
    const Rules *R = &((const Search *)context)->R;
    Pos p; Reserve rv;
    decode(R, slot, &p, &rv);
    return (size_t)encode(R, &p, &rv, out);
}

static int key_of_position(const void *context, const uint8_t *slot, uint8_t *key) {
    return key_of_slot((void *)context, slot, key);
}

static double score_of_position(const void *context, const uint8_t *slot) {
    const Rules *R = &((const Search *)context)->R;
    Pos p; Reserve rv;
    decode(R, slot, &p, &rv);
    return score(R, &p, &rv);
}

/* The dead-end test written here (reductions.DeadEnds.is_dead). */
static int dead_position(void *context, const uint8_t *slot) {
    const Rules *R = &((const Search *)context)->R;
    Pos p; Reserve rv;
    decode(R, slot, &p, &rv);
    return dead_test(R, &p, &rv);
}

static const KernelLimit limits[] = {{"MAX_PILES", MAXP}, {"MAX_PILE", MAXH}, {"MAX_CARDS", MAXR}, {NULL, 0}};

const Kernel interchange_kernel = {
    .name = "interchange",
    .move_bytes = 2,
    .most_moves = MAXCODES,
    .key_bytes = KEYBUF,
    .weights = 8,
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
