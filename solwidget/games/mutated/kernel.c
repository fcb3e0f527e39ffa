/* Mutated Solitaire's kernel: MutatedExpander's successors (expander.py, moves.py), score
 * (score.py), key and dead-end test (deadends.py), in C, for the compiled search
 * (solver/search_core.c, kernel.h's table). The loop itself (frontier, tables, nodes,
 * exploring, pooled loss proofs) is solver/loop.h's, shared by the families.
 *
 * It is a second writing of what those Python files say, not a source of rules: every
 * table it plays by (each pile's kind and row, which piles give cards to which rows, which
 * card goes on which, the suits of each colour, the score's weights) is packed by
 * native.py's ``pack_rules`` from the game's board and the expander, and it expands the
 * same positions in the same order as the Python search: the same successors (moves.py's
 * ``plans`` order, the same skipped moves, the same safe moves home after each), keys
 * (the same bytes as expander.py's ``key``), scores, frontier (a heap, and with
 * ``explore`` the same random kinds drawn from the same Mersenne Twister as Python's
 * random.Random(0)), transposition tables, evictions and trims, and with a pooled proof
 * the same keys added to the closure's two sets (search_core's KeyPools).
 * tests/test_kernels.py and tests/test_native_mutated.py compare the two successor by successor and search by
 * search; the solver replays every win through State.play.
 *
 * A position is kept as bytes: for each pile in the game's order its length and its cards,
 * then each deck's mode plus one (0: draw mode, else the base's index plus one). A move is
 * three bytes (source, destination, count): the destination BUILD_DST for "dN build", the
 * count CARD_MOVE | card for a card named from a deck in draw mode.
 *
 * Scores are sums of counts times weights. native.py uses this core only when every weight
 * is a multiple of 1/1024 below 2^20: then every partial sum is exact in a double, so any
 * order of adding gives the Python score (score.py adds cached parts of the parent's score)
 * to the last bit. A priority adds the depth weight times the depth to it as search.py
 * does, in the same two rounded steps (loop.h's loop_priority), so the depth weight
 * may be any double. */

#include "../../solver/kernel.h"

#define MAXP 24          /* piles: the game has 23 */
#define MAXH 56          /* cards in one pile: no two cards alike, so at most 52 */
#define NDECKS 3
#define MAXPLANS 1024    /* moves from one position: a few dozen in practice */
#define MAXSETTLE 64
#define KEYBUF 160       /* a key (at most 52 cards, 20 separators, 3 modes) and the zeros past it */
#define FACE_DOWN 64
#define ACE 1
#define KING 13
#define DRAW (-1)
#define BUILD_DST 255    /* a move's destination for "dN build" */
#define CARD_MOVE 128    /* a move's count byte: CARD_MOVE | card names a card */
#define SEP 0xFF         /* expander.py's SEPARATOR */

enum { FOUNDATION = 0, SPACE = 1, ODD = 2, DECK = 3 };   /* the kinds of pile (r2x: ODD) */

typedef struct {
    int np, nf;                       /* piles; the foundations are piles 0 .. nf - 1 */
    uint8_t kind[MAXP], row[MAXP];
    int d1;                           /* the decks are d1, d1 + 1, d1 + 2, in rows 1, 2, 3 */
    uint8_t givers[MAXP]; int ngivers;         /* board.GIVERS: the piles that give, in order */
    uint8_t gives_to[MAXP][2];                 /* by pile: the rows it gives to (255: none) */
    uint8_t row1[MAXP]; int nrow1;             /* expander.ROW1_SPACES */
    uint8_t group[4][MAXP]; int ngroup[4];     /* the key's sorted groups: foundations, rows 1-3 */
    uint32_t group_mask[4];                    /* their piles, as bits */
    uint8_t rest[MAXP]; int nrest;             /* the piles the key keeps in place */
    uint8_t fits[128][128];           /* board.FITS: may over lie on under in a run */
    uint8_t parents[64][2], nparents[64];      /* board.PARENTS_OF */
    uint8_t other[4][2], partner[4];  /* the suits of the other colour, the other of the same */
    double w_home, w_block, w_urgent, w_down, w_rows, w_decks, w_orphans;
    int total;                        /* cards in the game */
    int slot;                         /* bytes of an encoded position, at most */
} Rules;

typedef struct {
    uint8_t len[MAXP];
    int8_t mode[NDECKS];
    uint8_t c[MAXP][MAXH];
} Pos;

typedef struct { uint8_t src, dst, x; } Plan;     /* a move, as above */

static void decode(const Rules *R, const uint8_t *b, Pos *p) {
    for (int i = 0; i < R->np; i++) {
        int n = p->len[i] = *b++;
        memcpy(p->c[i], b, n);
        b += n;
    }
    for (int d = 0; d < NDECKS; d++) p->mode[d] = (int8_t)(*b++ - 1);
}

static int encode(const Rules *R, const Pos *p, uint8_t *b) {
    uint8_t *start = b;
    for (int i = 0; i < R->np; i++) {
        int n = p->len[i];
        *b++ = (uint8_t)n;
        memcpy(b, p->c[i], n);
        b += n;
    }
    for (int d = 0; d < NDECKS; d++) *b++ = (uint8_t)(p->mode[d] + 1);
    return (int)(b - start);
}

/* ------------------------------------------------------------------ the search */

typedef struct Asked Asked;

/* The kernel's context: the rules, and a search's scratch. */
typedef struct {
    Rules R;
    Asked *asked_keys; size_t casked;   /* an expansion's keys, asked in a second pass */
} Context;

/* A child pushed (loop_child) and its position stored: 0, or -1 out of memory. */
static inline int push_child(Loop *L, const Rules *R, uint32_t parent, const Plan *m, int nm, uint32_t depth,
                             const Pos *p, double value, int64_t *won) {
    uint8_t *slot;
    if (loop_child(L, parent, m, nm, depth, value, won, &slot)) return -1;
    if (slot) encode(R, p, slot);
    return 0;
}

/* ------------------------------------------------------------------ the rules (moves.py) */

typedef struct { int level[4], home[4], first_empty, cards_home; } Levels;

/* expander.levels: per suit, the cards home and the foundation that holds them. */
static void levels_of(const Rules *R, const Pos *p, Levels *L) {
    for (int s = 0; s < 4; s++) { L->level[s] = 0; L->home[s] = -1; }
    L->first_empty = -1;
    for (int f = 0; f < R->nf; f++) {
        if (!p->len[f]) { if (L->first_empty < 0) L->first_empty = f; continue; }
        int suit = p->c[f][0] >> 4 & 3;
        L->level[suit] = p->len[f]; L->home[suit] = f;
    }
    L->cards_home = L->level[0] + L->level[1] + L->level[2] + L->level[3];
}

/* board.run_length: the top cards of a pile (not below ``floor``) that form a movable run. */
static inline int run_length(const Rules *R, const uint8_t *pile, int size, int floor) {
    if (size <= floor || pile[size - 1] & FACE_DOWN) return 0;
    int n = 1;
    while (size - n > floor && R->fits[pile[size - n - 1]][pile[size - n]]) n++;
    return n;
}

/* moves.plans(piles, modes): every legal move but the key-equal duplicates, in its order.
 * At most MAXPLANS, else -1. */
static int plans_of(const Rules *R, const Pos *p, Plan *out) {
    int8_t tops[4][128], wanted[128];
    int empty[4] = {-1, -1, -1, -1}, empty_f = -1, np = 0;
    memset(tops, -1, sizeof tops);
    memset(wanted, -1, sizeof wanted);
    for (int i = 0; i < R->np; i++) {                 /* moves._open_piles */
        int n = p->len[i], row = R->row[i];
        switch (R->kind[i]) {
        case SPACE:
            if (n) tops[row][p->c[i][n - 1] & 127] = (int8_t)i;
            else if (empty[row] < 0) empty[row] = i;
            break;
        case ODD:                                      /* r2x takes cards while it holds some */
            if (n) tops[row][p->c[i][n - 1] & 127] = (int8_t)i;
            break;
        case DECK:
            if (p->mode[i - R->d1] != DRAW) tops[row][p->c[i][n - 1] & 127] = (int8_t)i;
            break;
        default:
            if (!n) { if (empty_f < 0) empty_f = i; }
            else if ((p->c[i][n - 1] & 15) != KING) wanted[(p->c[i][n - 1] + 1) & 127] = (int8_t)i;
        }
    }
#define OUT(s, d, x) do { if (np >= MAXPLANS) return -1; out[np++] = (Plan){(uint8_t)(s), (uint8_t)(d), (uint8_t)(x)}; } while (0)
    for (int g = 0; g < R->ngivers; g++) {
        int src = R->givers[g], size = p->len[src];
        const uint8_t *pile = p->c[src];
        if (!size) continue;
        int mode = R->kind[src] == DECK ? p->mode[src - R->d1] : 0;
        if (R->kind[src] == DECK && mode == DRAW) {   /* any face-up card, alone and by name */
            OUT(src, BUILD_DST, 1);
            for (int j = 0; j < size; j++) {
                int card = pile[j];
                if (card & FACE_DOWN) continue;
                for (int k = 0; k < 2; k++) {
                    int row = R->gives_to[src][k];
                    if (row == 255) continue;
                    if (row) {
                        for (int h = 0; h < R->nparents[card]; h++) {
                            int dst = tops[row][R->parents[card][h]];
                            if (dst >= 0) OUT(src, dst, CARD_MOVE | card);
                        }
                        if ((card & 15) == KING && empty[row] >= 0) OUT(src, empty[row], CARD_MOVE | card);
                    } else if ((card & 15) == ACE) {
                        if (empty_f >= 0) OUT(src, empty_f, CARD_MOVE | card);
                    } else if (wanted[card] >= 0) OUT(src, wanted[card], CARD_MOVE | card);
                }
            }
            continue;
        }
        int run = run_length(R, pile, size, mode);
        for (int n = 1; n <= run; n++) {
            int head = pile[size - n];
            for (int k = 0; k < 2; k++) {
                int row = R->gives_to[src][k];
                if (row == 255) continue;
                if (row) {
                    for (int h = 0; h < R->nparents[head]; h++) {
                        int dst = tops[row][R->parents[head][h]];
                        if (dst >= 0) OUT(src, dst, n);
                    }
                    if ((head & 15) == KING && empty[row] >= 0) OUT(src, empty[row], n);
                } else if (n == 1) {
                    if ((head & 15) == ACE) { if (empty_f >= 0) OUT(src, empty_f, 1); }
                    else if (wanted[head] >= 0) OUT(src, wanted[head], 1);
                }
            }
        }
    }
    for (int f = 0; f < R->nf; f++) {                /* a foundation's top back to row 1 */
        int n = p->len[f];
        if (!n) continue;
        int card = p->c[f][n - 1];
        for (int h = 0; h < R->nparents[card]; h++) {
            int dst = tops[1][R->parents[card][h]];
            if (dst >= 0) OUT(f, dst, 1);
        }
        if ((card & 15) == KING && empty[1] >= 0) OUT(f, empty[1], 1);
    }
#undef OUT
    return np;
}

/* moves.apply: the position after a legal move, in place; the piles it changed, as bits. */
static uint32_t apply(const Rules *R, Pos *p, int src, int dst, int x) {
    int len = p->len[src];
    uint8_t *pile = p->c[src], moving[MAXH];
    if (dst == BUILD_DST) {                           /* the top card turns up as the base */
        pile[len - 1] &= ~FACE_DOWN;
        p->mode[src - R->d1] = (int8_t)(len - 1);
        return 1u << src;
    }
    int n;
    if (x & CARD_MOVE) {
        int i = 0;
        while (pile[i] != (x & 127)) i++;
        moving[0] = pile[i]; n = 1;
        memmove(pile + i, pile + i + 1, len - i - 1);
        len--;
    } else {
        n = x; len -= n;
        memcpy(moving, pile + len, n);
    }
    memcpy(p->c[dst] + p->len[dst], moving, n);
    p->len[dst] += n;
    p->len[src] = len;
    int flips[2], nflips = 0;
    uint32_t touched = 1u << src | 1u << dst;
    if (R->kind[src] == SPACE || R->kind[src] == ODD) {
        if (len && pile[len - 1] & FACE_DOWN) {
            pile[len - 1] &= ~FACE_DOWN;
            if ((pile[len - 1] & 15) == KING) flips[nflips++] = R->row[src];
        }
    } else if (R->kind[src] == DECK && p->mode[src - R->d1] == len) {
        p->mode[src - R->d1] = DRAW;                  /* the base has left */
    }
    if ((R->kind[dst] == SPACE || R->kind[dst] == ODD) && (moving[0] & 15) == KING)
        flips[nflips++] = R->row[dst];
    for (int k = 0; k < nflips; k++) {                /* the deck of that row turns over */
        int deck = R->d1 + flips[k] - 1, m = p->len[deck];
        if (p->mode[flips[k] - 1] != DRAW || !m) continue;
        touched |= 1u << deck;
        uint8_t *d = p->c[deck];
        for (int i = 0, j = m - 1; i <= j; i++, j--) {
            uint8_t a = d[i] ^ FACE_DOWN, b = d[j] ^ FACE_DOWN;
            d[i] = b; d[j] = a;
        }
    }
    return touched;
}

/* ------------------------------------------------------------------ safe moves (expander.py) */

/* expander.safe_cards: bit card for each card that may go home safely at these levels. */
static uint64_t safe_cards(const Rules *R, const int *level) {
    uint64_t safe = 0;
    for (int suit = 0; suit < 4; suit++) {
        int rank = level[suit] + 1;
        int a = level[R->other[suit][0]], b = level[R->other[suit][1]];
        if (rank != KING && (a < b ? a : b) >= rank - 1 && level[R->partner[suit]] >= rank - 2)
            safe |= 1ull << (suit << 4 | rank);
    }
    return safe;
}

static inline int is_safe(uint64_t safe, int card) { return card < 64 && (safe >> card & 1); }

/* expander.is_settled */
static inline int is_settled(const Rules *R, int card, const int *level) {
    int rank = card & 15, suit = card >> 4 & 3;
    if (rank == KING) return 0;
    int a = level[R->other[suit][0]], b = level[R->other[suit][1]];
    return (a < b ? a : b) >= rank - 1 && level[R->partner[suit]] >= rank - 2;
}

/* expander.safe_plan: one safe move home (1, its source and foundation), or 0. */
static int safe_plan(const Rules *R, const Pos *p, int *src_out, int *f_out) {
    Levels L;
    levels_of(R, p, &L);
    uint64_t safe = safe_cards(R, L.level);
    if (!safe) return 0;
    int base = p->mode[0], d1 = R->d1;
    int n = R->nrow1 + (base != DRAW && p->len[d1] - base >= 2);
    for (int k = 0; k < n; k++) {
        int src = k < R->nrow1 ? R->row1[k] : d1, size = p->len[src];
        if (!size || !is_safe(safe, p->c[src][size - 1])) continue;
        if (src != d1 && size == 2 && p->c[src][0] & FACE_DOWN && (p->c[src][0] & 15) == KING && p->len[d1])
            continue;                                 /* it would turn up a King that flips d1 */
        int suit = p->c[src][size - 1] >> 4 & 3;
        *src_out = src;
        *f_out = L.home[suit] >= 0 ? L.home[suit] : L.first_empty;
        return 1;
    }
    return 0;
}

/* expander.settle: safe moves until none is left; how many, into ``played`` (the piles
 * they change added to ``touched``). */
static int settle(const Rules *R, Pos *p, Plan *played, uint32_t *touched) {
    int n = 0, src, f;
    while (n < MAXSETTLE - 1 && safe_plan(R, p, &src, &f)) {
        *touched |= apply(R, p, src, f, 1);
        played[n++] = (Plan){(uint8_t)src, (uint8_t)f, 1};
    }
    return n;
}

/* expander.buries_its_way_out: would "build" on this deck hide both hosts of the new base
 * (and for d1 the card below it in its suit)? */
static int buries_its_way_out(const Rules *R, const uint8_t *deck, int size, int is_d1) {
    int base = deck[size - 1] & 63, rank = base & 15;
    if (rank == KING || (is_d1 && rank == ACE)) return 0;
    uint64_t hidden = 0;
    for (int i = 0; i < size - 1; i++) hidden |= 1ull << (deck[i] & 63);
    for (int h = 0; h < R->nparents[base]; h++)
        if (!(hidden >> R->parents[base][h] & 1)) return 0;
    return !is_d1 || (hidden >> (base - 1) & 1);
}

/* expander._may_go_home: might the child have a safe move? ``safe`` the parent's safe
 * cards, ``every`` when the parent itself has a safe move. */
static int may_go_home(const Rules *R, const Pos *parent, const Pos *child, int src, int dst,
                       uint64_t safe, int every) {
    if (every) return 1;
    if (!safe) return 0;
    int ends[2] = {src, dst};
    for (int k = 0; k < 2; k++) {
        int i = ends[k];
        if (i == BUILD_DST || !((R->kind[i] == SPACE && R->row[i] == 1) || i == R->d1)) continue;
        int size = child->len[i];
        if (size && is_safe(safe, child->c[i][size - 1])) return 1;
    }
    return !child->len[R->d1] && parent->len[R->d1];
}

/* ------------------------------------------------------------------ the key (expander.key) */

/* Does pile a sort before pile b as bytes? With one deck no two piles hold the same card, so
 * two piles differ at their first byte unless one is empty (the empty one first, as b""
 * sorts first) or both are (equal): the bottom card decides. */
static inline int bottom_of(const Pos *p, int a) { return p->len[a] ? p->c[a][0] + 1 : 0; }

/* A pile's cards, written at k (most piles hold a few cards: one 8-byte copy, which the
 * pile's room of MAXH and the key buffer's room past the longest key allow). */
static inline uint8_t *copy_pile(uint8_t *k, const Pos *p, int i) {
    int n = p->len[i];
    if (n <= 8) memcpy(k, p->c[i], 8);
    else memcpy(k, p->c[i], n);
    return k + n;
}

/* The foundations sorted, each row's spaces sorted (as bytes), r2x and the decks as they
 * are, the deck modes plus one: joined by SEP, as expander.key joins them. With ``parent``
 * (a key made by this function, ``seg`` its groups' places in it), the groups whose piles
 * are not among ``touched`` are copied from it: they are the same piles, so the same bytes.
 * Without, ``seg`` (if given) receives the places of the groups. */
static int key_of_from(const Rules *R, const Pos *p, uint8_t *k, uint32_t touched, const uint8_t *parent,
                       int seg[4][2]) {
    uint8_t *start = k;
    for (int g = 0; g < 4; g++) {
        if (parent && !(touched & R->group_mask[g])) {
            memcpy(k, parent + seg[g][0], seg[g][1]);
            k += seg[g][1];
            continue;
        }
        uint8_t *from = k;
        int order[MAXP], n = R->ngroup[g];
        for (int i = 0; i < n; i++) {                 /* insertion sort: five piles at most */
            int t = R->group[g][i], j = i;
            while (j > 0 && bottom_of(p, t) < bottom_of(p, order[j - 1])) { order[j] = order[j - 1]; j--; }
            order[j] = t;
        }
        for (int i = 0; i < n; i++) {
            if (i) *k++ = SEP;
            k = copy_pile(k, p, order[i]);
        }
        *k++ = SEP;
        if (!parent && seg) { seg[g][0] = (int)(from - start); seg[g][1] = (int)(k - from); }
    }
    for (int i = 0; i < R->nrest; i++) {
        k = copy_pile(k, p, R->rest[i]);
        *k++ = SEP;
    }
    for (int d = 0; d < NDECKS; d++) *k++ = (uint8_t)(p->mode[d] + 1);
    memset(k, 0, 8);
    return (int)(k - start);
}

static int key_of(const Rules *R, const Pos *p, uint8_t *k) { return key_of_from(R, p, k, 0, NULL, NULL); }

/* ------------------------------------------------------------------ the score (score.py) */

/* score.hosts_gone: are both hosts of ``card`` home or among ``beneath``? */
static inline int hosts_gone(const Rules *R, int card, const int *level, uint64_t beneath) {
    int rank = card & 15, suit = card >> 4 & 3;
    if (rank == KING) return 0;
    for (int k = 0; k < 2; k++) {
        int s = R->other[suit][k];
        if (!(level[s] > rank || (beneath >> (s << 4 | (rank + 1)) & 1))) return 0;
    }
    return 1;
}

/* score.stack_value: a space, r2x or a built deck's pile. */
static double stack_value(const Rules *R, const uint8_t *pile, int size, const int8_t *need, int row,
                          const int *level) {
    int down = 0, blockers = 0, depth = 0, urgent = 0, lowest = 99;
    for (int j = 0; j < size; j++) {                  /* heuristics.scan_pile */
        int card = pile[j], n = need[card & 63];
        if (card & FACE_DOWN) down++;
        if (n > lowest) blockers++;
        else lowest = n;
        if (n == 1) { depth += size - 1 - j; urgent++; }
    }
    double value = R->w_down * down + R->w_block * blockers + R->w_urgent * (depth + urgent * (row - 1))
                   + R->w_rows * row * size;
    if (R->w_orphans != 0.0 && row > 1) {             /* score.stack_orphans */
        int count = 0;
        uint64_t beneath = 0;
        for (int j = 0; j < size; j++) {
            int card = pile[j];
            if (!(j && R->fits[pile[j - 1]][card]) && hosts_gone(R, card, level, beneath)) count++;
            beneath |= 1ull << (card & 63);
        }
        value += R->w_orphans * (row - 1) * count;
    }
    return value;
}

/* score.deck_value */
static double deck_value(const Rules *R, const uint8_t *pile, int size, int base, int row,
                         const int8_t *need, const int *level) {
    int loose = base == DRAW ? size : base, down = 0;
    for (int j = 0; j < loose; j++) down += (pile[j] & FACE_DOWN) != 0;
    double value = (R->w_decks + R->w_down) * down + R->w_rows * row * loose;
    if (R->w_orphans != 0.0 && row > 1) {
        int count = 0;
        for (int j = 0; j < loose; j++) count += hosts_gone(R, pile[j], level, 0);
        value += R->w_orphans * (row - 1) * count;
    }
    if (base != DRAW)
        value += stack_value(R, pile + base, size - base, need, row, level) + R->w_down * loose;
    return value;
}

/* A position's score in parts: its levels, need table, each pile's part and their sum (the
 * home cards' part with them), unfloored. */
typedef struct { Levels L; int8_t need[64]; double part[MAXP], sum; } Parts;

static inline double pile_part(const Rules *R, const Pos *p, int i, const int8_t *need, const int *level) {
    int n = p->len[i];
    if (!n) return 0.0;
    if (R->kind[i] == DECK) return deck_value(R, p->c[i], n, p->mode[i - R->d1], R->row[i], need, level);
    return stack_value(R, p->c[i], n, need, R->row[i], level);
}

static void parts_of(const Rules *R, const Pos *p, Parts *P) {
    levels_of(R, p, &P->L);
    for (int s = 0; s < 4; s++)                       /* heuristics.need_tables, one deck */
        for (int r = 0; r < 16; r++) P->need[s << 4 | r] = (int8_t)(r - P->L.level[s]);
    P->sum = R->w_home * (R->total - P->L.cards_home);
    for (int i = R->nf; i < R->np; i++) {
        P->part[i] = pile_part(R, p, i, P->need, P->L.level);
        P->sum += P->part[i];
    }
}

/* score.value_of: 0 when won, else at least 0.5. */
static double score(const Rules *R, const Pos *p) {
    Parts P;
    parts_of(R, p, &P);
    if (P.L.cards_home == R->total) return 0.0;
    return P.sum > 0.5 ? P.sum : 0.5;
}

/* score.moves_from: the score of a child whose move left the foundations as they are, from
 * its parent's parts, the piles ``touched`` taken again (every part is a count times an
 * exact weight: the sums are exact, so this is ``score`` of the child to the last bit). */
static double score_from(const Rules *R, const Parts *P, const Pos *q, uint32_t touched) {
    double value = P->sum;
    for (int i = R->nf; i < R->np; i++)
        if (touched >> i & 1) value += pile_part(R, q, i, P->need, P->L.level) - P->part[i];
    return value > 0.5 ? value : 0.5;
}

/* ------------------------------------------------------------------ the dead-end test (deadends.py) */

/* deadends.py's sets of cards: card c is bit c & 63 (suit << 4 | rank). */
#define SUIT_BITS 0xFFFFull
#define EVEN_RANKS 0x5555ull                               /* bits 0, 2, .., 14 */
#define CHAIN_BLACK (EVEN_RANKS | (EVEN_RANKS ^ SUIT_BITS) << 16)
#define CHAIN_RED ((EVEN_RANKS ^ SUIT_BITS) | EVEN_RANKS << 16)
#define BOTH_CHAINS (1ull | 1ull << 16)
#define BLACK_SUITS (1ull | 1ull << 48)
#define RED_SUITS (1ull << 16 | 1ull << 32)
#define EVERY_CARD (0x3FFEull * (1ull | 1ull << 16 | 1ull << 32 | 1ull << 48))   /* ranks 1..13 */
#define KINGS (1ull << 13 | 1ull << 29 | 1ull << 45 | 1ull << 61)
#define ACES (1ull << 1 | 1ull << 17 | 1ull << 33 | 1ull << 49)

typedef struct { int head; uint64_t cards; } Beneath;       /* cards kept while head has not moved */
typedef struct { uint64_t above, cards; } Down;              /* a deck's face-down card and those below */

typedef struct {
    uint64_t place[5], bottoms[4];
    int empty[4];
    Beneath beneath[MAXP * 2]; int nbeneath;
    Down down[4][MAXH]; int ndown[4];                         /* by row: its deck's face-down cards */
    int kings_down[MAXP][2]; int nkings;                      /* (head, row) above a face-down King */
} DeadFacts;

static inline uint64_t card_bits(const uint8_t *cards, int n) {
    uint64_t found = 0;
    for (int i = 0; i < n; i++) found |= 1ull << (cards[i] & 63);
    return found;
}

/* deadends._row and _deck, gathered as deadends._facts gathers them. */
static void dead_facts(const Rules *R, const Pos *p, DeadFacts *D) {
    memset(D, 0, sizeof *D);
    for (int f = 0; f < R->nf; f++)
        if (p->len[f]) D->place[0] |= ((2ull << p->len[f]) - 2) << (p->c[f][0] & 48);
    for (int i = R->nf; i < R->np; i++) {
        int n = p->len[i], row = R->row[i];
        const uint8_t *pile = p->c[i];
        if (R->kind[i] == DECK) {
            int base = p->mode[i - R->d1], top = base == DRAW ? n : base + 1;
            D->place[row] |= card_bits(pile, n);
            if (base != DRAW && base)
                D->beneath[D->nbeneath++] = (Beneath){pile[base] & 63, card_bits(pile, base)};
            uint64_t below = 0;
            for (int j = 0; j < top - 1; j++)
                if (pile[j] & FACE_DOWN) below |= 1ull << (pile[j] & 63);
            for (int j = top - 2; j >= 0; j--) {
                if (!(pile[j] & FACE_DOWN)) continue;
                D->down[row][D->ndown[row]++] = (Down){card_bits(pile + j + 1, top - j - 1), below};
                below &= ~(1ull << (pile[j] & 63));
            }
            continue;
        }
        int space = R->kind[i] == SPACE;                      /* r2x never refills */
        if (!n) { D->empty[row] |= space; continue; }
        D->place[row] |= card_bits(pile, n);
        if (space) D->bottoms[row] |= 1ull << (pile[0] & 63);
        if (pile[0] & FACE_DOWN) {
            D->beneath[D->nbeneath++] = (Beneath){pile[1] & 63, 1ull << (pile[0] & 63)};
            if ((pile[0] & 15) == KING && space) {
                D->kings_down[D->nkings][0] = pile[1] & 63;
                D->kings_down[D->nkings][1] = row;
                D->nkings++;
            }
        }
    }
}

static inline uint64_t chains(uint64_t cards) {
    uint64_t black = (cards | cards >> 48) & SUIT_BITS, red = (cards >> 16 | cards >> 32) & SUIT_BITS;
    return ((black * BOTH_CHAINS) & CHAIN_BLACK) | ((red * BOTH_CHAINS) & CHAIN_RED);
}

static inline uint64_t cards_of(uint64_t ch) {
    uint64_t black = ch & CHAIN_BLACK, red = ch & CHAIN_RED;
    return ((black | black >> 16) & SUIT_BITS) * BLACK_SUITS | ((red | red >> 16) & SUIT_BITS) * RED_SUITS;
}

static inline uint64_t guests_reached(uint64_t hosts, uint64_t came) {
    uint64_t active = chains(hosts), passing = chains(came);
    for (int shift = 1; shift <= 8; shift *= 2) {
        active |= passing & active >> shift;
        passing &= passing >> shift;
    }
    return cards_of(active >> 1);
}

static inline uint64_t climbed(uint64_t home, uint64_t ready) {
    home |= ready & ACES;
    for (int shift = 1; shift <= 8; shift *= 2) {
        home |= ready & home << shift;
        ready &= ready << shift;
    }
    return home;
}

static uint64_t free_cards(const DeadFacts *D, const uint64_t *reach, uint64_t moved, int *flipped) {
    uint64_t home = D->place[0], free = EVERY_CARD & ~(((home & ~moved) >> 1) & home);
    for (int i = 0; i < D->nbeneath; i++)
        if (!(moved >> D->beneath[i].head & 1)) free &= ~D->beneath[i].cards;
    if (D->ndown[1] || D->ndown[2] || D->ndown[3]) {
        for (int row = 1; row <= 3; row++)
            if (!flipped[row] && (reach[row] & KINGS & (~D->place[row] | moved))) flipped[row] = 1;
        for (int i = 0; i < D->nkings; i++)
            if (moved >> D->kings_down[i][0] & 1) flipped[D->kings_down[i][1]] = 1;
        for (int row = 1; row <= 3; row++) {
            if (flipped[row]) continue;
            for (int i = 0; i < D->ndown[row]; i++)
                if ((moved & D->down[row][i].above) != D->down[row][i].above) {
                    free &= ~D->down[row][i].cards;
                    break;
                }
        }
    }
    return free;
}

/* deadends.all_home: is every card found home? */
static int all_home(const DeadFacts *D) {
    uint64_t reach[5];
    int flipped[4] = {0, 0, 0, 0};
    memcpy(reach, D->place, sizeof reach);
    for (;;) {
        uint64_t moved = (reach[0] & ~D->place[0]) | (reach[1] & ~D->place[1]) | (reach[2] & ~D->place[2])
                         | (reach[3] & ~D->place[3]);
        uint64_t free = free_cards(D, reach, moved, flipped);
        int grew = 0;
        for (int row = 3; row >= 1; row--) {             /* deadends.CLIMB_ORDER */
            uint64_t here = reach[row], came = (reach[row - 1] | reach[row + 1]) & free & ~here;
            if (!came) continue;
            uint64_t kings = D->empty[row] || (moved & D->bottoms[row]) ? came & KINGS : 0;
            uint64_t fresh = (came & guests_reached((here & free) | kings, came)) | kings;
            if (fresh) { reach[row] = here | fresh; grew = 1; }
        }
        uint64_t up = climbed(reach[0], reach[1] & free);
        if (up != reach[0]) { reach[0] = up; grew = 1; }
        if (reach[0] == EVERY_CARD) return 1;
        if (!grew) return 0;
    }
}

static int dead_in_c(const Rules *R, const Pos *p) {
    DeadFacts D;
    dead_facts(R, p, &D);
    return !all_home(&D);
}

/* Is the popped position dead: the test above, or where the search was given one, the test
 * called back in its place (the loop's dead_hook, asked with the popped slot), or none in a
 * probe that skips it; 1 dead, 0 not, -1 failed. */
static int is_dead(Loop *L, const Rules *R, const uint8_t *slot, const Pos *p) {
    if (L->skip_dead_ends) return 0;
    if (L->dead_hook) return L->dead_hook(L->hook_arg, slot);
    return dead_in_c(R, p);
}

/* ------------------------------------------------------------------ one expansion */

/* A child's key, made in expand_next's first pass: its hash, and the plan it comes of. */
struct Asked { uint8_t key[KEYBUF]; uint64_t hash; int n, plan; };

/* The child of plan ``m`` from ``p``, with the moves that reach it (the move, then the safe
 * moves home it allows); how many. ``touched``: the piles they changed. */
static inline int child_of(const Rules *R, const Pos *p, Plan m, Pos *q, Plan *played, uint64_t safe,
                           int every, uint32_t *touched) {
    int src = m.src, dst = m.dst, nm = 1;
    *q = *p;
    *touched = apply(R, q, src, dst, m.x);
    played[0] = m;
    if (src < R->nf || (dst != BUILD_DST && dst < R->nf) || may_go_home(R, p, q, src, dst, safe, every))
        nm += settle(R, q, played + 1, touched);
    return nm;
}

/* The position popped, and its key with the key's groups (the children's keys are made from
 * them): the loop asks for the key first when the search is pooled (loop_next's KeyOf). */
typedef struct { const Rules *R; Pos p; int seg[4][2], n; } Popped;

static int key_of_popped(void *popped, const uint8_t *slot, uint8_t *key) {
    Popped *P = popped;
    decode(P->R, slot, &P->p);
    return P->n = key_of_from(P->R, &P->p, key, 0, NULL, P->seg);
}

/* _Search.expand_next with MutatedExpander.scored: the won node, EXPANDED if none, SKIPPED or
 * FAILED (loop.h). */
static int64_t expand(void *context, Loop *L, uint32_t *depth_out) {
    Context *S = context;
    const Rules *R = &S->R;
    Entry e;
    uint8_t key[KEYBUF];
    Popped P = {.R = R, .n = -1};
    int next = loop_next(L, &e, key_of_popped, &P, key);
    if (next <= 0) return next ? FAILED : SKIPPED;
    if (P.n < 0) key_of_popped(&P, loop_position(L, e.node), key);
    const uint8_t *popped = loop_position(L, e.node);      /* readable until the next store */
    if (loop_release_slot(L, e.node)) return FAILED;
    const Pos *pp = &P.p;
    Node node = L->nodes[e.node];
    *depth_out = node.depth;
    int64_t won = -1;
    int dead = is_dead(L, R, popped, pp);
    if (dead < 0) return FAILED;
    if (!dead) {
        Parts parts;                                  /* the parent's score, in parts */
        parts_of(R, pp, &parts);
        const Levels lv = parts.L;
        int a, b, every = safe_plan(R, pp, &a, &b);
        uint64_t safe = every ? 0 : safe_cards(R, lv.level);
        Plan plans[MAXPLANS], played[MAXSETTLE + 1];
        int np = plans_of(R, pp, plans);
        if (np < 0) {
            L->error = "search_core: more moves from one position than it holds";
            return FAILED;
        }
        /* Two passes, for the memory: the children's keys first, each key's slot in the
         * tables fetched ahead, then each key asked in turn, as scored asks them (the
         * children of the admitted ones made again: the same moves give the same child). */
        if (grow((void **)&S->asked_keys, &S->casked, (size_t)np + 1, sizeof(Asked))) goto memory;
        Asked *asked = S->asked_keys;
        int nasked = 0;
        Pos q;
        for (int i = 0; i < np; i++) {
            Plan m = plans[i];
            int src = m.src, dst = m.dst;
            if (src < R->nf) {
                if (is_settled(R, pp->c[src][pp->len[src] - 1], lv.level)) continue;
            } else if (dst == BUILD_DST && buries_its_way_out(R, pp->c[src], pp->len[src], src == R->d1)) {
                continue;
            }
            uint32_t touched;
            child_of(R, pp, m, &q, played, safe, every, &touched);
            Asked *k = &asked[nasked++];
            k->n = key_of_from(R, &q, k->key, touched, key, P.seg);
            k->hash = hash_bytes(k->key, k->n);
            k->plan = i;
            loop_prefetch(L, k->hash);
        }
        for (int i = 0; i < nasked; i++)              /* the slots are fetched: their keys next */
            loop_prefetch_key(L, asked[i].hash);
        for (int i = 0; i < nasked && won < 0; i++) {
            const uint8_t *k = asked[i].key;
            int n = asked[i].n;
            int ok = loop_admit_hashed(L, k, n, asked[i].hash);
            if (ok < 0) return FAILED;
            if (!ok) continue;
            uint32_t touched;
            Plan m = plans[asked[i].plan];
            int nm = child_of(R, pp, m, &q, played, safe, every, &touched);
            int same_home = nm == 1 && m.src >= R->nf && (m.dst == BUILD_DST || m.dst >= R->nf) &&
                            parts.L.cards_home < R->total;
            double value = same_home ? score_from(R, &parts, &q, touched) : score(R, &q);
            if (push_child(L, R, e.node, played, nm, node.depth + nm, &q, value, &won)) goto memory;
        }
    }
    return kernel_expanded(L, won);
memory:
    return FAILED;
}

/* ------------------------------------------------------------------ the kernel's table */

/* The rules, as native.py's pack_rules packs them:
 *   3 bytes: the piles, the cards (52), the givers;
 *   kinds: a byte a pile (0 foundation, 1 space, 2 r2x, 3 deck; the foundations first, the
 *          three decks one run, in rows 1, 2, 3); rows: each pile's row (0 to 3);
 *   givers: 3 bytes a giving pile, in board.GIVERS's order: the pile, then the rows it
 *          gives to (255: none);
 *   fits: 128 x 128 bytes (board.FITS); parents: 64 x 2 bytes (board.PARENTS_OF, 255: none);
 *   colours: 12 bytes, by suit the two suits of the other colour, then by suit the other
 *          suit of its colour.
 * The weights: the 7 of score.py (home, blockers, urgent, down, rows, decks, orphans). */
static const char *load(void *context, const uint8_t *b, size_t size, const double *w) {
    Rules *R = &((Context *)context)->R;
    if (size < 3) return "search_core: mutated rules of 3 bytes at least";
    int np = b[0], total = b[1], ngivers = b[2];
    if (np < 1 || np > MAXP) return "search_core: 1 to 24 piles";
    if (ngivers > MAXP) return "search_core: givers: 3 bytes a pile";
    if (size != 3 + 2 * (size_t)np + 3 * (size_t)ngivers + 128 * 128 + 128 + 12)
        return "search_core: mutated rules of the wrong size for their piles";
    const uint8_t *k = b + 3, *rw = k + np, *gv = rw + np, *ft = gv + 3 * ngivers, *pa = ft + 128 * 128,
                  *co = pa + 128;
    int nf = 0, d1 = -1, last_space = -1;
    for (int i = 0; i < np; i++) {
        if (k[i] > DECK || rw[i] > 3 || (k[i] == FOUNDATION) != (rw[i] == 0)) return "search_core: a pile's kind or row";
        if (k[i] == FOUNDATION && i != nf++) return "search_core: the foundations come first";
        if (k[i] == DECK && d1 < 0) d1 = i;
        if (k[i] == SPACE) last_space = i;
        R->kind[i] = k[i]; R->row[i] = rw[i];
    }
    if (nf != 4 || d1 < 0 || d1 + NDECKS > np) return "search_core: four foundations and three decks";
    for (int d = 0; d < NDECKS; d++)
        if (k[d1 + d] != DECK || rw[d1 + d] != d + 1) return "search_core: the decks d1, d2, d3 in rows 1, 2, 3";
    R->np = np; R->nf = nf; R->d1 = d1;
    memset(R->gives_to, 255, sizeof R->gives_to);
    R->ngivers = ngivers;
    for (int g = 0; g < R->ngivers; g++) {
        int src = gv[3 * g];
        if (src >= np || k[src] == FOUNDATION) return "search_core: a giver is a space, r2x or a deck";
        for (int j = 0; j < 2; j++) {
            int row = gv[3 * g + 1 + j];
            if (row != 255 && row > 3) return "search_core: a giver's rows";
            R->gives_to[src][j] = (uint8_t)row;
        }
        R->givers[g] = (uint8_t)src;
    }
    for (int i = 0; i < np; i++) {
        if (k[i] == SPACE && rw[i] == 1) R->row1[R->nrow1++] = (uint8_t)i;
        int g = k[i] == FOUNDATION ? 0 : k[i] == SPACE ? rw[i] : -1;
        if (g >= 0) { R->group[g][R->ngroup[g]++] = (uint8_t)i; R->group_mask[g] |= 1u << i; }
        else if (i < last_space) return "search_core: r2x and the decks come after the spaces";
        else R->rest[R->nrest++] = (uint8_t)i;
    }
    for (int g = 0; g < 4; g++)
        if (R->ngroup[g] > 8) return "search_core: at most 8 piles in a group";
    memcpy(R->fits, ft, sizeof R->fits);
    for (int card = 0; card < 64; card++)
        for (int j = 0; j < 2; j++) {
            int h = pa[2 * card + j];
            if (h == 255) continue;
            if (h >= 64) return "search_core: parents are cards below 64";
            R->parents[card][R->nparents[card]++] = (uint8_t)h;
        }
    if (kernel_colours(co, R->other, R->partner)) return "search_core: colours are suits 0 to 3";
    R->w_home = w[0]; R->w_block = w[1]; R->w_urgent = w[2]; R->w_down = w[3];
    R->w_rows = w[4]; R->w_decks = w[5]; R->w_orphans = w[6];
    if (total != 52) return "search_core: one deck of 52 cards";
    R->total = total;
    R->slot = np + total + NDECKS;
    return NULL;
}

static size_t slot_bytes(const void *context) { return (size_t)((const Context *)context)->R.slot; }

/* A position as native.py packs it (its ``encode``), checked before decode() reads it: cards
 * below 128, no card twice (so no pile outgrows MAXH, and the key's sort may read bottom
 * cards alone), each foundation an Ace and the cards up from it in its suit (so a suit not
 * home has an empty foundation to go to), a built deck's base within it. The slot's encoding
 * is the packed one. */
static int read_position(const void *context, const uint8_t *b, size_t n, uint8_t *slot) {
    const Rules *R = &((const Context *)context)->R;
    size_t at = 0;
    Pos q, *p = &q;
    int total = 0;
    uint64_t seen = 0;
    if (n > (size_t)R->slot) return -1;
    for (int i = 0; i < R->np; i++) {
        if (at >= n) return -1;
        int size = b[at++];
        if (size > MAXH || at + size > n) return -1;
        for (int j = 0; j < size; j++) {
            int card = b[at + j];
            if (card >= 128 || (R->kind[i] == FOUNDATION && card >= 64) || (seen >> (card & 63) & 1)) return -1;
            seen |= 1ull << (card & 63);
        }
        at += size;
        total += size;
    }
    if (at + NDECKS != n || total > R->total) return -1;
    decode(R, b, p);
    for (int d = 0; d < NDECKS; d++)                  /* the mode bytes, before int8_t takes them */
        if (b[at + d] && b[at + d] - 1 >= p->len[R->d1 + d]) return -1;
    for (int f = 0; f < R->nf; f++) {                 /* a foundation: Ace up, in one suit */
        int suit = p->c[f][0] >> 4 & 3;                /* (no card twice: one a suit) */
        for (int j = 0; j < p->len[f]; j++)
            if (p->c[f][j] != (suit << 4 | (j + 1))) return -1;
    }
    memcpy(slot, b, n);
    return 0;
}


static size_t write_position(const void *context, const uint8_t *slot, uint8_t *out) {
    const Rules *R = &((const Context *)context)->R;
    Pos p;
    decode(R, slot, &p);
    return (size_t)encode(R, &p, out);
}

static int key_of_position(const void *context, const uint8_t *slot, uint8_t *key) {
    const Rules *R = &((const Context *)context)->R;
    Pos p;
    decode(R, slot, &p);
    return key_of(R, &p, key);
}

static double score_of_position(const void *context, const uint8_t *slot) {
    const Rules *R = &((const Context *)context)->R;
    Pos p;
    decode(R, slot, &p);
    return score(R, &p);
}

static int dead_position(void *context, const uint8_t *slot) {
    const Rules *R = &((const Context *)context)->R;
    Pos p;
    decode(R, slot, &p);
    return dead_in_c(R, &p);
}

/* Each move's piles this game's (or a build's). */
static const char *check_moves(const void *context, const uint8_t *moves, int n) {
    const Rules *R = &((const Context *)context)->R;
    for (int i = 0; i < n; i++) {
        int src = moves[3 * i], dst = moves[3 * i + 1];
        if (src >= R->np || (dst >= R->np && dst != BUILD_DST)) return "search_core: a move names no pile";
    }
    return NULL;
}

static void release(void *context) {
    Context *S = context;
    GIVE(S->asked_keys, S->casked, sizeof(Asked));
}

static const KernelLimit limits[] = {{"MAX_PILES", MAXP}, {"MAX_CARDS", MAXH}, {NULL, 0}};

const Kernel mutated_kernel = {
    .name = "mutated",
    .move_bytes = 3,
    .most_moves = MAXSETTLE - 1,
    .key_bytes = KEYBUF,
    .weights = 7,
    .context_bytes = sizeof(Context),
    .load = load,
    .slot_bytes = slot_bytes,
    .read = read_position,
    .write = write_position,
    .key = key_of_position,
    .score = score_of_position,
    .expand = expand,
    .dead = dead_position,
    .check_moves = check_moves,
    .release = release,
    .limits = limits,
};
