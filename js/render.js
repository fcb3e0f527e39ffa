// Draws any game from data: the layout (each pile's place in card units, its fan and layer)
// and the visible piles (card codes, "back" for hidden cards). No game is named here.

import { cardHTML, cardName, expandCodes, isBack } from "./cards.js";
import { attachInput } from "./input.js";
import { parseMove, pileActions } from "./moves.js";
import { buildToolbar } from "./toolbar.js";

const CARD_HEIGHT = 1.4;
// How far a fanned card sits from the one beneath it, in card widths. A right fan's face-up
// step leaves the whole corner index ("10♥") readable.
const FAN_STEP = {
  down: { up: 0.3, back: 0.14 },
  right: { up: 0.62, back: 0.12 },
};
const MIN_BACK_STEP = 0.04;     // a squeezed fan gives up its backs' room first
const MIN_FAN_ROOM = 3.6;       // a fan at the bottom fans this far at least (13 face-up cards)
const ROW_GAP = 0.45;           // room kept under a fan (captions, counts) when it pushes a row down
const MIN_UNIT = 26;
const MAX_UNIT = 72;
const DEFAULT_WIDTH = 860;

function div(className, attrs = {}) {
  const node = document.createElement("div");
  node.className = className;
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

function escapeAttr(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Does pile ``below`` lie under pile ``above`` (same layer, lower, overlapping across)? */
function beneath(above, below) {
  return below !== above && below.z === above.z && below.y > above.y
    && below.x < above.x + 1 && above.x < below.x + 1;
}

/** How much room (card widths) a pile has to fan into. A down fan with piles of its layer
 * beneath pushes them down instead (unlimited); else it fans to the layout's bottom (or
 * MIN_FAN_ROOM, the board growing). A right
 * fan stops before the next pile of its row, or the board's edge. */
function fanRoom(pile, piles, layout) {
  if (pile.fan === "down") {
    if (piles.some((other) => beneath(pile, other))) return Infinity;
    return Math.max(layout.height - pile.y - CARD_HEIGHT, MIN_FAN_ROOM);
  }
  if (pile.fan === "right") {
    let room = layout.width - pile.x - 1;
    for (const other of piles) {
      if (other !== pile && other.z === pile.z && other.x > pile.x && Math.abs(other.y - pile.y) < CARD_HEIGHT) {
        room = Math.min(room, other.x - pile.x - 1 - 0.1);
      }
    }
    return Math.max(room, 0.3);
  }
  return 0;
}

/** Each card's offset from the pile's corner, in card widths. A fan longer than its room
 * squeezes its backs first, then every step alike. */
export function fanOffsets(codes, fan, room) {
  if (!FAN_STEP[fan]) return codes.map(() => 0);
  let steps = codes.slice(0, -1).map((code) => (isBack(code) ? FAN_STEP[fan].back : FAN_STEP[fan].up));
  const total = (list) => list.reduce((a, b) => a + b, 0);
  if (total(steps) > room) {
    const backs = steps.filter((_, i) => isBack(codes[i])).length;
    const spare = total(steps) - room;
    const squeeze = backs ? Math.min(spare / backs, FAN_STEP[fan].back - MIN_BACK_STEP) : 0;
    steps = steps.map((step, i) => (isBack(codes[i]) ? step - squeeze : step));
    const natural = total(steps);
    if (natural > room) steps = steps.map((step) => (step * room) / natural);
  }
  const offsets = [0];
  for (const step of steps) offsets.push(offsets[offsets.length - 1] + step);
  return offsets;
}

/** How far each pile moves down so that the fans above it fit (card widths): a row (piles
 * of one layer at one height) moves as one. ``extents``: pile id -> its drawn height. */
export function rowShifts(piles, extents) {
  const rows = new Map();       // "z y" -> the row's piles
  for (const pile of piles) {
    const key = `${pile.z || 0} ${pile.y}`;
    if (!rows.has(key)) rows.set(key, []);
    rows.get(key).push(pile);
  }
  const shifts = new Map();
  for (const row of [...rows.values()].sort((a, b) => a[0].y - b[0].y)) {
    let shift = 0;
    for (const pile of row) {
      for (const above of piles) {
        if (!beneath(above, pile)) continue;          // above.y < pile.y: its shift is known
        const gap = Math.min(ROW_GAP, pile.y - above.y - CARD_HEIGHT);   // as the layout has it, at most
        const bottom = above.y + shifts.get(above.id) + extents.get(above.id) + gap;
        shift = Math.max(shift, shifts.get(above.id), bottom - pile.y);
      }
    }
    for (const pile of row) shifts.set(pile.id, shift);
  }
  return shifts;
}

export class Board {
  constructor(model, el) {
    this.model = model;
    this.el = el;
    this.pick = null;           // {src, n, card, index}: the cards picked up, if any
    this.dirty = new Set();
    this.flushQueued = false;
    this.listeners = [];
    // JupyterLab's shortcuts (r: raw cell, arrows: cell selection) leave keys in here to us.
    this.root = div("sw-root", { "data-role": "widget", "data-lm-suppress-shortcuts": "true" });
    el.appendChild(this.root);
    this.toolbar = buildToolbar(this);
    this.felt = div("sw-felt");
    this.board = div("sw-board", { role: "application" });
    this.felt.appendChild(this.board);
    this.status = div("sw-status", { "data-role": "status", "aria-live": "polite" });
    this.message = div("sw-message", { "data-role": "message", "aria-live": "assertive" });
    this.root.append(this.toolbar.element, this.felt, this.status, this.message, this.toolbar.footer);
    // The output area's width comes from the observer (no layout is forced while drawing).
    this.resizeObserver = typeof ResizeObserver === "function"
      ? new ResizeObserver((entries) => this.resize(entries[entries.length - 1].contentRect.width)) : null;
    this.build();
    this.cleanupInput = attachInput(this);
    this.listen("change:layout", () => { this.build(); });
    for (const name of ["legal", "highlight", "extras", "status", "message", "message_kind",
      "moves_made", "history_length", "solver_progress", "solution", "busy", "deal", "four_colour"]) {
      this.listen(`change:${name}`, () => this.queue(null));
    }
    this.listen("msg:custom", (msg) => {
      if (msg && msg.type === "error") this.flashError();
    });
    if (this.resizeObserver) this.resizeObserver.observe(this.el);
  }

  listen(event, callback) {
    this.model.on(event, callback);
    this.listeners.push([event, callback]);
  }

  destroy() {
    for (const [event, callback] of this.listeners) this.model.off(event, callback);
    if (this.resizeObserver) this.resizeObserver.disconnect();
    this.cleanupInput();
    this.root.remove();
  }

  send(message) {
    this.model.send(message);
  }

  // ------------------------------------------------------------ data
  /** Pile ``pid``'s cards, one code per card ("back" for a hidden one), bottom to top. */
  codes(pid) {
    const synced = this.model.get(`pile_${pid}`);
    const cached = this.codeCache.get(pid);
    if (cached && cached[0] === synced) return cached[1];
    const codes = expandCodes(synced);
    this.codeCache.set(pid, [synced, codes]);
    return codes;
  }

  legal() {
    return (this.model.get("legal") || []).map(parseMove);
  }

  // ------------------------------------------------------------ building
  /** The whole board in one pass: one HTML string, one DOM write. Positions are in card
   * widths (CSS variables times --u), so a new width changes one variable, not the cards. */
  build() {
    const layout = this.model.get("layout") || { width: 1, height: 1, piles: [] };
    this.layout = layout;
    this.pileInfo = new Map(layout.piles.map((p) => [p.id, p]));
    this.pileIds = new Set(this.pileInfo.keys());
    this.room = new Map(layout.piles.map((p) => [p.id, fanRoom(p, layout.piles, layout)]));
    this.codeCache = new Map();
    this.extents = new Map();       // pile id -> how far down its cards reach, in card widths
    this.shifts = new Map();        // pile id -> how far its row moved down for the fans above
    this.drawn = new Map();         // pile id -> the codes drawn last
    this.marks = [];                // [element, class] that decorate() added
    this.added = [];                // captions and action buttons that decorate() added
    for (const [event, callback] of this.listeners.filter(([e]) => e.startsWith("change:pile_"))) {
      this.model.off(event, callback);
    }
    this.listeners = this.listeners.filter(([e]) => !e.startsWith("change:pile_"));
    const parts = layout.piles.map((pile) => this.pileParts(pile));
    const shifts = rowShifts(layout.piles, this.extents);
    const first = layout.piles.find((p) => p.kind === "tableau" || p.kind === "space") || layout.piles[0];
    this.board.innerHTML = layout.piles.map((pile, i) => {
      const part = parts[i];
      this.shifts.set(pile.id, shifts.get(pile.id));
      return `<div class="${part.className}" data-pile="${escapeAttr(pile.id)}" data-kind="${escapeAttr(pile.kind)}"`
        + ` tabindex="${pile === first ? 0 : -1}" role="group" aria-label="${escapeAttr(part.label)}"`
        + ` style="z-index:${10 * (pile.z || 0) + 1};--x:${pile.x};--y:${pile.y + shifts.get(pile.id)};`
        + `--w:${part.width};--h:${part.height}">${part.inner}</div>`;
    }).join("");
    this.pileEls = new Map(layout.piles.map((pile, i) => [pile.id, this.board.children[i]]));
    for (const pile of layout.piles) this.listen(`change:pile_${pile.id}`, () => this.queue(pile.id));
    this.board.style.width = `calc(var(--u) * ${layout.width})`;
    this.dirty.clear();
    this.flush();
    if (!this.resizeObserver) this.resize(this.el.clientWidth || DEFAULT_WIDTH);
  }

  /** Fit the cards to the output area's width (pixels). */
  resize(width) {
    if (!width) return;             // hidden (a closed tab): keep the size it had
    const unit = Math.max(MIN_UNIT, Math.min(MAX_UNIT, Math.floor((width - 16) / this.layout.width)));
    if (unit !== this.unit) {
      this.unit = unit;
      this.root.style.setProperty("--u", `${unit}px`);
    }
  }

  // ------------------------------------------------------------ drawing
  queue(pid) {
    if (pid) this.dirty.add(pid);
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => this.flush());
  }

  flush() {
    this.flushQueued = false;
    if (this.pick && !this.pickStillThere()) this.pick = null;
    for (const pid of this.dirty) this.drawPile(pid);
    this.dirty.clear();
    this.moveRows();
    this.fitHeight();
    this.decorate();
    this.toolbar.update();
    this.board.setAttribute("aria-label", `${this.layout.name || "solitaire"}, deal ${this.model.get("deal")}`);
  }

  /** Rows move down as the fans above them grow, and back up as they shrink. */
  moveRows() {
    const shifts = rowShifts(this.layout.piles, this.extents);
    for (const [pid, shift] of shifts) {
      if (shift === this.shifts.get(pid)) continue;
      this.shifts.set(pid, shift);
      this.pileEls.get(pid).style.setProperty("--y", String(this.pileInfo.get(pid).y + shift));
    }
  }

  /** As tall as the cards reach (in quarter card widths, so it changes seldom): a board with
   * short fans keeps no empty band at its bottom, and grows as they grow. */
  fitHeight() {
    let bottom = 0;
    for (const [pid, extent] of this.extents) {
      const pile = this.pileInfo.get(pid);
      const count = pile.kind === "stock" || pile.kind === "waste" ? 0.2 : 0;   // its count, below it
      bottom = Math.max(bottom, pile.y + this.shifts.get(pid) + extent + count);
    }
    const height = Math.ceil((bottom + 0.2) * 4) / 4;     // 0.2: room below the last card
    if (height !== this.height) {
      this.height = height;
      this.board.style.height = `calc(var(--u) * ${height})`;
    }
  }

  /** What a pile shows: its cards' HTML, its size and class, its label; notes its extent. */
  pileParts(pile) {
    const pid = pile.id;
    const codes = this.codes(pid);
    const before = this.drawn.get(pid) || [];
    let kept = 0;               // cards that were there already; the others arrive with a flourish
    while (kept < codes.length && kept < before.length && codes[kept] === before[kept]) kept += 1;
    const grew = before.length > 0 && codes.length > before.length;
    this.drawn.set(pid, codes);
    const offsets = fanOffsets(codes, pile.fan, this.room.get(pid));
    const shift = pile.fan === "none" ? Math.max(0, codes.length - 2) : 0;   // stacks show their top two
    const cards = [];
    for (let index = shift; index < codes.length; index += 1) {
      const style = pile.fan === "none" || index === 0 ? "" : `--o:${offsets[index].toFixed(3)}`;
      cards.push(cardHTML(codes[index], pid, index, index === codes.length - 1, style,
        grew && index >= kept ? " sw-arrived" : ""));
    }
    if (codes.length === 0) cards.push(`<div class="sw-empty">${escapeAttr(pile.empty || "")}</div>`);
    if ((pile.kind === "stock" || pile.kind === "waste") && codes.length > 0) {
      cards.push(`<div class="sw-count" data-role="count">${codes.length}</div>`);
    }
    const extent = offsets.length ? offsets[offsets.length - 1] : 0;
    this.extents.set(pid, CARD_HEIGHT + (pile.fan === "down" ? extent : 0));
    const top = codes.length ? codes[codes.length - 1] : null;
    let className = `sw-pile sw-kind-${pile.kind} sw-fan-${pile.fan}`;
    if (codes.length === 0) className += pile.gone_when_empty ? " sw-empty-pile sw-gone" : " sw-empty-pile";
    return {
      inner: cards.join(""),
      className,
      width: 1 + (pile.fan === "right" ? extent : 0),
      height: CARD_HEIGHT + (pile.fan === "down" ? extent : 0),
      label: `${pid}: ${pile.kind}, ${codes.length} card${codes.length === 1 ? "" : "s"}`
        + (top ? `, top ${cardName(top)}` : ""),
    };
  }

  /** Redraw one pile's cards; the pile element itself (and its focus) stays. */
  drawPile(pid) {
    const pile = this.pileInfo.get(pid);
    const pileEl = this.pileEls.get(pid);
    if (!pile || !pileEl) return;
    const part = this.pileParts(pile);
    pileEl.innerHTML = part.inner;
    pileEl.style.setProperty("--w", String(part.width));
    pileEl.style.setProperty("--h", String(part.height));
    for (const name of ["sw-empty-pile", "sw-gone"]) {
      pileEl.classList.toggle(name, part.className.includes(name));
    }
    pileEl.setAttribute("aria-label", part.label);
  }

  /** What depends on more than one pile: covering, picks, targets, hints, captions. */
  decorate() {
    // Undo the last decoration (only what it touched: a board holds hundreds of cards).
    for (const [node, className] of this.marks) node.classList.remove(className);
    for (const node of this.added) node.remove();
    this.marks = [];
    this.added = [];
    const legal = this.legal();
    const extras = this.model.get("extras") || {};
    for (const [pid, pileEl] of this.pileEls) {
      const pile = this.pileInfo.get(pid);
      if (pile.covered_by && pile.covered_by.length) {
        pileEl.classList.toggle("sw-covered", pile.covered_by.some((c) => this.codes(c).length > 0));
      }
      const caption = this.captionFor(pid, extras);
      if (caption) this.append(pileEl, caption);
    }
    for (const move of pileActions(legal, this.pileIds)) {
      const pileEl = this.pileEls.get(move.src);
      if (!pileEl) continue;
      const button = document.createElement("button");
      button.className = "sw-pile-action";
      button.dataset.move = move.text;
      button.textContent = move.dst;
      button.title = move.text;
      this.append(pileEl, button);
    }
    const stock = this.pileEls.get("stock");
    if (stock) stock.classList.toggle("sw-redeal-ok", legal.some((m) => m.dst === "stock"));
    if (this.pick) this.showPick(legal);
    for (const text of this.model.get("highlight") || []) this.showHint(parseMove(text));
  }

  mark(node, className) {
    node.classList.add(className);
    this.marks.push([node, className]);
  }

  append(parent, node) {
    parent.appendChild(node);
    this.added.push(node);
  }

  captionFor(pid, extras) {
    for (const value of Object.values(extras)) {
      const entry = value && typeof value === "object" ? value[pid] : undefined;
      if (entry && typeof entry.mode === "string") {
        const caption = div("sw-caption");
        caption.textContent = entry.mode;
        return caption;
      }
    }
    return null;
  }

  cardEls(pid, fromIndex) {
    return [...this.pileEls.get(pid).querySelectorAll(".sw-card")]
      .filter((card) => Number(card.dataset.index) >= fromIndex);
  }

  showPick(legal) {
    const { src, index } = this.pick;
    this.mark(this.pileEls.get(src), "sw-source");
    const picked = this.pick.single ? this.cardEls(src, index).slice(0, 1) : this.cardEls(src, index);
    for (const card of picked) this.mark(card, "sw-picked");
    for (const move of legal) {
      const target = this.pileEls.get(move.dst);
      if (target && move.src === src && (move.card ? move.card === this.pick.card : move.n === this.pick.n)) {
        this.mark(target, "sw-target");
      }
    }
  }

  showHint(move) {
    const codes = this.codes(move.src);
    const index = move.card ? codes.lastIndexOf(move.card) : codes.length - move.n;
    const cards = this.cardEls(move.src, index);
    for (const card of move.card ? cards.slice(0, 1) : cards) this.mark(card, "sw-hint-src");
    const target = this.pileEls.get(move.dst);
    if (target) this.mark(target, "sw-hint-dst");
  }

  flashError() {
    this.message.classList.remove("sw-flash");
    void this.message.offsetWidth;       // restart the animation
    this.message.classList.add("sw-flash");
  }

  // ------------------------------------------------------------ picking (input.js drives these)
  /** Pick up the cards of ``pid`` from ``index`` to the top (or one card of a deck). */
  setPick(pid, index) {
    const codes = this.codes(pid);
    if (index < 0 || index >= codes.length || isBack(codes[index])) return false;
    const kind = this.pileInfo.get(pid).kind;
    const single = kind === "deck" && index < codes.length - 1 && this.namesCards(pid);
    this.pick = { src: pid, index, card: codes[index], n: single ? 1 : codes.length - index, single };
    this.decorate();
    return true;
  }

  /** Do this pile's legal moves name their card (a deck in draw mode), or count? */
  namesCards(pid) {
    const moves = this.legal().filter((m) => m.src === pid && this.pileIds.has(m.dst));
    return moves.length === 0 || moves.some((m) => m.card);
  }

  clearPick() {
    if (!this.pick) return;
    this.pick = null;
    this.decorate();
  }

  pickStillThere() {
    const codes = this.codes(this.pick.src);
    return codes[this.pick.index] === this.pick.card;
  }
}
