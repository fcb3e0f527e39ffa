// Draws any game from data: the layout (each pile's place in card units, its fan and layer)
// and the visible piles (card codes, "back" for hidden cards). No game is named here.

import { cardElement, cardName, isBack } from "./cards.js";
import { attachInput } from "./input.js";
import { parseMove, pileActions } from "./moves.js";
import { buildToolbar } from "./toolbar.js";

const CARD_HEIGHT = 1.4;
// How far a fanned card sits from the one beneath it, in card widths.
const FAN_STEP = {
  down: { up: 0.3, back: 0.14 },
  right: { up: 0.5, back: 0.12 },
};
const MIN_UNIT = 26;
const MAX_UNIT = 72;
const DEFAULT_WIDTH = 860;

function div(className, attrs = {}) {
  const node = document.createElement("div");
  node.className = className;
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

/** How much room (card widths) a pile has to fan into before it meets a pile of its own
 * layer, or the board's edge. */
function fanRoom(pile, piles, layout) {
  if (pile.fan === "down") {
    let room = layout.height - pile.y - CARD_HEIGHT;
    for (const other of piles) {
      if (other !== pile && other.z === pile.z && other.y > pile.y && Math.abs(other.x - pile.x) < 1) {
        room = Math.min(room, other.y - pile.y - CARD_HEIGHT - 0.1);
      }
    }
    return Math.max(room, 0.3);
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

/** Each card's offset from the pile's corner, in card widths. */
export function fanOffsets(codes, fan, room) {
  if (!FAN_STEP[fan]) return codes.map(() => 0);
  const steps = codes.slice(0, -1).map((code) => (isBack(code) ? FAN_STEP[fan].back : FAN_STEP[fan].up));
  const natural = steps.reduce((a, b) => a + b, 0);
  const scale = natural > room ? room / natural : 1;
  const offsets = [0];
  for (const step of steps) offsets.push(offsets[offsets.length - 1] + step * scale);
  return offsets;
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
    this.resizeObserver = typeof ResizeObserver === "function" ? new ResizeObserver(() => this.resize()) : null;
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
  codes(pid) {
    return this.model.get(`pile_${pid}`) || [];
  }

  legal() {
    return (this.model.get("legal") || []).map(parseMove);
  }

  // ------------------------------------------------------------ building
  build() {
    const layout = this.model.get("layout") || { width: 1, height: 1, piles: [] };
    this.layout = layout;
    this.pileInfo = new Map(layout.piles.map((p) => [p.id, p]));
    this.pileIds = new Set(this.pileInfo.keys());
    this.room = new Map(layout.piles.map((p) => [p.id, fanRoom(p, layout.piles, layout)]));
    this.pileEls = new Map();
    this.extents = new Map();       // pile id -> how far down its cards reach, in card widths
    this.drawn = new Map();         // pile id -> the codes drawn last
    this.marks = [];                // [element, class] that decorate() added
    this.added = [];                // captions and action buttons that decorate() added
    this.board.replaceChildren();
    for (const [event, callback] of this.listeners.filter(([e]) => e.startsWith("change:pile_"))) {
      this.model.off(event, callback);
    }
    this.listeners = this.listeners.filter(([e]) => !e.startsWith("change:pile_"));
    for (const pile of layout.piles) {
      const pileEl = div(`sw-pile sw-kind-${pile.kind}`, {
        "data-pile": pile.id, "data-kind": pile.kind, tabindex: "-1", role: "group",
      });
      pileEl.style.zIndex = String(10 * (pile.z || 0) + 1);
      this.pileEls.set(pile.id, pileEl);
      this.board.appendChild(pileEl);
      this.listen(`change:pile_${pile.id}`, () => this.queue(pile.id));
    }
    const first = layout.piles.find((p) => p.kind === "tableau" || p.kind === "space") || layout.piles[0];
    if (first) this.pileEls.get(first.id).tabIndex = 0;
    this.unit = null;               // a new layout is drawn whole, whatever the width
    this.resize();
  }

  resize() {
    const layout = this.layout;
    const width = this.el.clientWidth || this.root.clientWidth || DEFAULT_WIDTH;
    const unit = Math.max(MIN_UNIT, Math.min(MAX_UNIT, Math.floor((width - 16) / layout.width)));
    if (unit === this.unit) return;
    this.unit = unit;
    this.root.style.setProperty("--u", `${unit}px`);
    this.board.style.width = `${Math.ceil(layout.width * unit)}px`;
    this.drawAll();
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
    this.fitHeight();
    this.decorate();
    this.toolbar.update();
    this.board.setAttribute("aria-label", `${this.layout.name || "solitaire"}, deal ${this.model.get("deal")}`);
  }

  drawAll() {
    for (const pid of this.pileInfo.keys()) this.drawPile(pid);
    this.dirty.clear();
    this.flush();
  }

  /** As tall as the cards reach (in whole card widths, so it changes seldom), at most the
   * layout's height, which leaves room for the longest fans. */
  fitHeight() {
    let bottom = 0;
    for (const [pid, extent] of this.extents) bottom = Math.max(bottom, this.pileInfo.get(pid).y + extent);
    const height = Math.min(this.layout.height, Math.ceil(bottom + 0.35));
    this.board.style.height = `${Math.ceil(height * this.unit)}px`;
  }

  /** Rebuild one pile's cards; the pile element itself (and its focus) stays. */
  drawPile(pid) {
    const pile = this.pileInfo.get(pid);
    const pileEl = this.pileEls.get(pid);
    if (!pile || !pileEl) return;
    const codes = this.codes(pid);
    const before = this.drawn.get(pid) || [];
    let kept = 0;               // cards that were there already; the others arrive with a flourish
    while (kept < codes.length && kept < before.length && codes[kept] === before[kept]) kept += 1;
    this.drawn.set(pid, codes);
    const u = this.unit;
    const offsets = fanOffsets(codes, pile.fan, this.room.get(pid));
    const shift = pile.fan === "none" ? Math.max(0, codes.length - 2) : 0;   // stacks show their top two
    const children = [];
    codes.forEach((code, index) => {
      if (index < shift) return;
      const card = cardElement(code, pid, index === codes.length - 1);
      card.dataset.index = String(index);
      if (index >= kept && before.length > 0 && codes.length > before.length) card.classList.add("sw-arrived");
      const offset = offsets[index] * u;
      card.style.transform = pile.fan === "right" ? `translate(${offset}px, 0)` : `translate(0, ${offset}px)`;
      children.push(card);
    });
    if (codes.length === 0) {
      const empty = div("sw-empty");
      empty.textContent = pile.empty || "";
      children.push(empty);
    }
    if ((pile.kind === "stock" || pile.kind === "waste") && codes.length > 0) {
      const count = div("sw-count", { "data-role": "count" });
      count.textContent = String(codes.length);
      children.push(count);
    }
    pileEl.replaceChildren(...children);
    const extent = offsets.length ? offsets[offsets.length - 1] : 0;
    pileEl.style.left = `${pile.x * u}px`;
    pileEl.style.top = `${pile.y * u}px`;
    pileEl.style.width = `${(1 + (pile.fan === "right" ? extent : 0)) * u}px`;
    pileEl.style.height = `${(CARD_HEIGHT + (pile.fan === "down" ? extent : 0)) * u}px`;
    this.extents.set(pid, CARD_HEIGHT + (pile.fan === "down" ? extent : 0));
    pileEl.classList.toggle("sw-empty-pile", codes.length === 0);
    pileEl.classList.toggle("sw-gone", codes.length === 0 && Boolean(pile.gone_when_empty));
    const top = codes.length ? codes[codes.length - 1] : null;
    pileEl.setAttribute("aria-label", `${pid}: ${pile.kind}, ${codes.length} card${codes.length === 1 ? "" : "s"}`
      + (top ? `, top ${cardName(top)}` : ""));
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
