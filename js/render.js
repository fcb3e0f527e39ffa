// Draws any game from data: the board trait (the game's layout: each pile's place in card
// units, its fan and layer; and the geometry it is drawn with, the engine's) and the visible
// piles (card codes, "back" for hidden cards). No game is named here, no length is set here.

import { cardHTML, cardName, expandCodes, isBack } from "./cards.js";
import { boardHeight, fanOffsets, fanRoom, firstShown, pileSize, rowShifts } from "./geometry.js";
import { attachInput } from "./input.js";
import { parseMove, pileActions } from "./moves.js";
import { buildToolbar } from "./toolbar.js";

// The card width on screen, in pixels, follows the output area's width within these bounds.
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
    this.listen("change:board", () => { this.build(); });
    for (const name of ["legal", "highlight", "extras", "status", "message", "message_kind",
      "moves_made", "history_length", "solver_progress", "solution", "busy", "deal", "four_colour",
      "move_words", "board_min_height", "show_ids", "auto_foundations"]) {
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
    this.toolbar.destroy();
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
    const layout = this.model.get("board");
    this.layout = layout;
    this.geometry = layout.geometry;
    this.root.style.setProperty("--sw-aspect", String(this.geometry.card_aspect));
    this.pileInfo = new Map(layout.piles.map((p) => [p.id, p]));
    this.pileIds = new Set(this.pileInfo.keys());
    this.room = new Map(layout.piles.map((p) => [p.id, fanRoom(p, layout, this.geometry)]));
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
    const shifts = rowShifts(layout.piles, this.extents, this.geometry);
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
    const shifts = rowShifts(this.layout.piles, this.extents, this.geometry);
    for (const [pid, shift] of shifts) {
      if (shift === this.shifts.get(pid)) continue;
      this.shifts.set(pid, shift);
      this.pileEls.get(pid).style.setProperty("--y", String(this.pileInfo.get(pid).y + shift));
    }
  }

  /** As tall as the cards reach (in steps, so it changes seldom): a board with short fans
   * keeps no empty band at its bottom, and grows as they grow. */
  fitHeight() {
    // Never lower than the tallest position of the line (the kernel's board_min_height).
    const height = Math.max(boardHeight(this.layout.piles, this.shifts, this.extents, this.geometry),
      this.model.get("board_min_height") || 0);
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
    const offsets = fanOffsets(codes, pile.fan, this.room.get(pid), this.geometry);
    const cards = [];
    for (let index = firstShown(pile.fan, codes.length, this.geometry); index < codes.length; index += 1) {
      const style = pile.fan === "none" || index === 0 ? "" : `--o:${offsets[index].toFixed(3)}`;
      cards.push(cardHTML(codes[index], pid, index, index === codes.length - 1, style,
        grew && index >= kept ? " sw-arrived" : ""));
    }
    if (codes.length === 0) cards.push(`<div class="sw-empty">${escapeAttr(pile.empty || "")}</div>`);
    if (this.geometry.counted_kinds.includes(pile.kind) && codes.length > 0) {
      cards.push(`<div class="sw-count" data-role="count">${codes.length}</div>`);
    }
    const [width, height] = pileSize(pile.fan, offsets, this.geometry);
    this.extents.set(pid, height);
    const top = codes.length ? codes[codes.length - 1] : null;
    let className = `sw-pile sw-kind-${pile.kind} sw-fan-${pile.fan}`;
    if (codes.length === 0) className += pile.gone_when_empty ? " sw-empty-pile sw-gone" : " sw-empty-pile";
    return {
      inner: cards.join(""),
      className,
      width,
      height,
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
