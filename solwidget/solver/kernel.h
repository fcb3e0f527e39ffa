/* A family's kernel: what the compiled search (search_core.c) asks of a game family, as a
 * table of functions. A kernel (games/<family>/kernel.c) uses no Python: it reads the rules
 * its family's Python packed from the game into bytes (native.py's ``pack_rules``), and
 * positions packed to bytes the same way; search_core.c holds the Python type, the loop
 * (loop.h) and every conversion between Python and C, once for every family.
 *
 * search_core.c finds a kernel by its family's name: the build (hatch_build.py, by
 * compiled.py's ``kernel_sources``) compiles every games/<family>/kernel.c with the
 * extension and lists each one's ``<family>_kernel`` in its table. */

#ifndef SOLWIDGET_KERNEL_H
#define SOLWIDGET_KERNEL_H

#include "loop.h"

/* A bound of a kernel that its family's Python reads before it hands a game to it (the
 * most piles, cards, ...): search_core.limits(family) gives them by name. */
typedef struct { const char *name; int value; } KernelLimit;

typedef struct Kernel {
    const char *name;               /* the family's name, its package's */
    int move_bytes;                 /* one move, as the search's nodes keep it */
    int most_moves;                 /* moves that reach a start (seed, successors), at most */
    int key_bytes;                  /* a key's buffer: the longest key and 8 zero bytes past it */
    int weights;                    /* how many weights the score takes */
    size_t context_bytes;           /* the kernel's context: its rules, and scratch of one search */

    /* The context (context_bytes, zeroed) set up from the packed rules and the score's
     * weights: NULL, or why the rules are refused (search_core raises a ValueError). */
    const char *(*load)(void *context, const uint8_t *rules, size_t size, const double *weights);
    /* The bytes of a slot: an encoded position, at most. */
    size_t (*slot_bytes)(const void *context);
    /* A position as its family's Python packs it, checked and stored in a slot: 0, or -1
     * where it is malformed. */
    int (*read)(const void *context, const uint8_t *position, size_t size, uint8_t *slot);
    /* The packed position of a slot (as ``read`` takes it) in ``out`` (slot_bytes): its size. */
    size_t (*write)(const void *context, const uint8_t *slot, uint8_t *out);
    /* The key of a slot's position (key_bytes, zero for 8 bytes past its end): its size. */
    int (*key)(const void *context, const uint8_t *slot, uint8_t *key);
    /* The score of a slot's position, 0 for a won one. */
    double (*score)(const void *context, const uint8_t *slot);
    /* _Search.expand_next: the next position popped from ``L`` and its children admitted and
     * pushed (loop_next, loop_admit, loop_child): the won node, EXPANDED, SKIPPED or FAILED
     * (L->error says why, NULL: out of memory); *depth: the popped position's depth. */
    int64_t (*expand)(void *context, Loop *L, uint32_t *depth);
    /* Is the slot's position dead (no win from it)? 1 or 0: optional, a kernel without a
     * dead-end test of its own leaves it NULL. Its ``expand`` asks the loop's dead_hook
     * instead where one is set (1, 0, or -1: FAILED). */
    int (*dead)(void *context, const uint8_t *slot);
    /* NULL, or why ``n`` moves (move_bytes each) that reach a start are no moves of this
     * game (search_core raises a ValueError): optional, where any bytes will do. */
    const char *(*check_moves)(const void *context, const uint8_t *moves, int n);
    /* Frees what ``load`` and ``expand`` allocated in the context: optional. */
    void (*release)(void *context);
    const KernelLimit *limits;      /* ends with {NULL, 0} */
} Kernel;

/* ------------------------------------------------------------------ what kernels share */

/* Is ``c`` the byte of a card below ``limit`` (64: face up; 128: face down too, bit 6), of a
 * rank from Ace (1) to King (13) in its low four bits? A kernel's ``read`` and ``load`` check
 * cards by it before they use them. */
static inline int kernel_is_card(int c, int limit) {
    return c >= 0 && c < limit && (c & 15) >= 1 && (c & 15) <= 13;
}

/* The 12 bytes of a colour table, as the families' pack_rules pack it (by suit the two suits
 * of the other colour, then by suit the other suit of its colour), read into ``other`` and
 * ``same``: 0, or -1 where a byte names no suit (0 to 3). */
static inline int kernel_colours(const uint8_t *b, uint8_t other[4][2], uint8_t same[4]) {
    for (int s = 0; s < 4; s++) {
        if (b[2 * s] > 3 || b[2 * s + 1] > 3 || b[8 + s] > 3) return -1;
        other[s][0] = b[2 * s]; other[s][1] = b[2 * s + 1]; same[s] = b[8 + s];
    }
    return 0;
}

/* The end of an expansion (a kernel's ``expand``, its children pushed): the won child's node
 * where it pushed one (``won`` >= 0), else EXPANDED with the frontier trimmed as _Search
 * trims it after each expansion (loop_trim), or FAILED (out of memory). */
static inline int64_t kernel_expanded(Loop *L, int64_t won) {
    if (won >= 0) return won;
    return loop_trim(L) ? FAILED : EXPANDED;
}

#endif
