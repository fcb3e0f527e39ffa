// Where piles and fanned cards are drawn, in card widths: the twin of the engine's
// solwidget/engine/geometry.py. Every constant comes from the board trait's ``geometry``
// (the engine's ``geometry.as_data()``), so the browser and the SVG picture draw one board.

import { isBack } from "./cards.js";

/** Does pile ``below`` lie under pile ``above`` (same layer, lower, overlapping across)?
 * A pile spans one card width across, or its layout's ``span`` (a right fan's reach). */
export function beneath(above, below) {
  return below !== above && below.z === above.z && below.y > above.y
    && below.x < above.x + (above.span || 1) && above.x < below.x + (below.span || 1);
}

/** How far a pile's fan may reach from its first card to its last. A down fan with piles of
 * its layer beneath pushes them down instead (unlimited); else it reaches to the layout's
 * bottom, or min_fan_room. A right fan stops before the next pile of its row, or the edge. */
export function fanRoom(pile, board, g) {
  if (pile.fan === "down") {
    if (board.piles.some((other) => beneath(pile, other))) return Infinity;
    return Math.max(board.height - pile.y - g.card_aspect, g.min_fan_room);
  }
  if (pile.fan === "right") {
    let room = board.width - pile.x - 1;
    for (const other of board.piles) {
      if (other !== pile && other.z === pile.z && other.x > pile.x
        && Math.abs(other.y - pile.y) < g.card_aspect) {
        room = Math.min(room, other.x - pile.x - 1 - g.right_fan_clearance);
      }
    }
    return Math.max(room, g.min_right_room);
  }
  return 0;
}

const total = (list) => list.reduce((a, b) => a + b, 0);

/** Each card's distance from the pile's corner along its fan. A fan longer than its room is
 * squeezed: its backs' steps first, then every step alike. */
export function fanOffsets(codes, fan, room, g) {
  const step = g.fan_step[fan];
  if (!step) return codes.map(() => 0);
  const backs = codes.slice(0, -1).map(isBack);
  let steps = backs.map((back) => (back ? step.back : step.up));
  if (total(steps) > room) {
    const count = backs.filter(Boolean).length;
    if (count) {
      const squeeze = Math.min((total(steps) - room) / count, step.back - g.min_back_step);
      steps = steps.map((s, i) => (backs[i] ? s - squeeze : s));
    }
    const natural = total(steps);
    if (natural > room) steps = steps.map((s) => (s * room) / natural);
  }
  const offsets = [0];
  for (const s of steps) offsets.push(offsets[offsets.length - 1] + s);
  return offsets.slice(0, codes.length);
}

/** [width, height] that a pile's cards cover, from its fan's offsets. */
export function pileSize(fan, offsets, g) {
  const reach = offsets.length ? offsets[offsets.length - 1] : 0;
  return [1 + (fan === "right" ? reach : 0), g.card_aspect + (fan === "down" ? reach : 0)];
}

/** How far each pile moves down so that the fans above it fit: a row (piles of one layer at
 * one height) moves as one. ``extents``: pile id -> the height its cards cover. */
export function rowShifts(piles, extents, g) {
  const rows = new Map();       // "z y" -> the row's piles
  for (const pile of piles) {
    const key = `${pile.z} ${pile.y}`;
    if (!rows.has(key)) rows.set(key, []);
    rows.get(key).push(pile);
  }
  const shifts = new Map();
  for (const row of [...rows.values()].sort((a, b) => a[0].y - b[0].y)) {
    let shift = 0;
    for (const pile of row) {
      for (const above of piles) {
        if (!beneath(above, pile)) continue;          // above lies higher: its shift is known
        const gap = Math.min(g.push_gap, pile.y - above.y - g.card_aspect);   // as the layout has it, at most
        const bottom = above.y + shifts.get(above.id) + extents.get(above.id) + gap;
        shift = Math.max(shift, shifts.get(above.id), bottom - pile.y);
      }
    }
    for (const pile of row) shifts.set(pile.id, shift);
  }
  return shifts;
}

/** How tall the board is drawn: as far as its cards (and counts) reach, plus a margin. */
export function boardHeight(piles, shifts, extents, g) {
  let bottom = 0;
  for (const pile of piles) {
    const count = g.counted_kinds.includes(pile.kind) ? g.count_room : 0;
    bottom = Math.max(bottom, pile.y + shifts.get(pile.id) + extents.get(pile.id) + count);
  }
  return Math.ceil((bottom + g.bottom_margin) * g.height_steps) / g.height_steps;
}

/** The index of a pile's lowest drawn card: a stack draws its top cards only. */
export function firstShown(fan, count, g) {
  return fan === "none" ? Math.max(0, count - g.stack_shown) : 0;
}

/** The board as its arrangement ``index`` places it: 0 is the board itself, ``k`` its
 * ``narrower[k - 1]`` (the engine's geometry.arranged, twin). */
export function arranged(board, index) {
  if (!index) return board;
  const other = board.narrower[index - 1];
  const piles = board.piles.map((pile) => ({ ...pile, x: other.places[pile.id][0], y: other.places[pile.id][1] }));
  return { ...board, width: other.width, height: other.height, piles };
}

/** The arrangement to draw in ``pixels`` of width: the first (the widest first) whose cards
 * are ``minUnit`` pixels wide at least; else the narrowest, and the board scrolls. */
export function chooseArrangement(board, pixels, minUnit) {
  const widths = [board.width, ...(board.narrower || []).map((other) => other.width)];
  const index = widths.findIndex((width) => pixels / width >= minUnit);
  return index >= 0 ? index : widths.length - 1;
}

/** Is the pile covered now: does a pile that covers it (the layout's ``covered_by``) hold
 * cards? ``count(pid)``: how many cards a pile holds. */
export function coveredNow(pile, count) {
  return Boolean(pile.covered_by && pile.covered_by.some((other) => count(other) > 0));
}
