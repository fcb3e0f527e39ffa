// Draws any game from data: the board trait (the game's layout: each pile's place in card
// units, its fan and layer; and the geometry it is drawn with, the engine's) and the visible
// piles (card codes, "back" for hidden cards). No game is named here, no length is set here.

import { cardHTML, cardName, expandCodes, isBack } from "./cards.js";
import { arranged, boardHeight, chooseArrangement, coveredNow, fanOffsets, fanRoom, firstShown, pileSize,
  rowShifts } from "./geometry.js";
import { attachInput } from "./input.js";
import { keptCount, matchSlides, motionAllowed, slide } from "./motion.js";
import { pileActions, readMove } from "./moves.js";
import { buildToolbar } from "./toolbar.js";

// The card width on screen, in pixels, follows the output area's width within these bounds.
// The least keeps a card's corner index (0.27 card widths, widget.css) at 10.8 px: narrower
// output areas get the layout's narrower arrangement, and past that the board scrolls.
const MIN_UNIT = 40;
const MAX_UNIT = 72;
const DEFAULT_WIDTH = 860;
const FELT_PADDING = 16;        // the felt's padding left and right (widget.css), in pixels
const CELEBRATION_MS = 1600;    // the win's celebration (widget.css) ends by then
const LANDING_MS = 2000;        // a drop's place is where its cards slide from, if the kernel answers by then

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
    this.landing = null;        // {src, index, rects}: where dragged cards were dropped
    this.width = 0;             // the output area's width in pixels, once known
    this.arrangement = 0;       // which of the board's arrangements is drawn
    this.won = null;            // was the game won at the last redraw (null: none yet)
    this.raised = new Map();    // pile element -> its cards still sliding into it
    this.dirty = new Set();
    this.flushQueued = false;
    this.listeners = [];
    this.note = null;           // {text, kind}: what the page says itself (a paused replay)
    this.quieted = null;        // a refusal put away when the next action started
    this.replayEnded = false;   // a replay played to the line's end: fit the felt to the cards
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
      "move_words", "board_min_height", "show_ids", "auto_foundations", "replay_delay", "solve_seconds",
      "action_words"]) {
      this.listen(`change:${name}`, () => this.queue(null));
    }
    this.listen("change:message", () => { this.note = null; this.quieted = null; });
    this.listen("msg:custom", (msg) => {
      if (msg && msg.type === "error") {
        if (msg.field === "deal") this.toolbar.refuseDeal(msg.text);
        this.note = null;
        this.quieted = null;
        this.queue(null);
        this.flashError();
      } else if (msg && msg.type === "play") {
        this.toolbar.play();
      }
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
    this.quiet();
    this.model.send(message);
  }

  /** Say ``text`` on the message line from the page itself, until the kernel says more. */
  say(text, kind) {
    this.note = { text, kind };
    this.showMessage();
  }

  /** The next action starts: a refusal on screen, and the page's own note, are put away. */
  quiet() {
    const shown = this.note || (this.model.get("message_kind") === "error" ? this.model.get("message") : null);
    if (!shown) return;
    this.note = null;
    if (this.model.get("message_kind") === "error") this.quieted = this.model.get("message");
    this.showMessage();
  }

  /** The message line: the page's own note, else the kernel's message (unless put away). */
  showMessage() {
    const kernel = this.model.get("message") || "";
    const hidden = this.quieted !== null && this.quieted === kernel;
    const { text, kind } = this.note || (hidden ? { text: "", kind: "" }
      : { text: kernel, kind: this.model.get("message_kind") || "" });
    this.message.textContent = text;
    this.message.dataset.kind = kind;
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
    return (this.model.get("legal") || []).map(readMove);
  }

  // ------------------------------------------------------------ building
  /** The whole board in one pass: one HTML string, one DOM write. Positions are in card
   * widths (CSS variables times --u), so a new width changes one variable, not the cards. */
  build() {
    const board = this.model.get("board");
    this.arrangement = this.width ? chooseArrangement(board, this.width - FELT_PADDING, MIN_UNIT) : 0;
    const layout = arranged(board, this.arrangement);
    this.layout = layout;
    this.board.dataset.arrangement = String(this.arrangement);   // 0: the widest; tests read it
    this.geometry = layout.geometry;
    this.root.style.setProperty("--sw-aspect", String(this.geometry.card_aspect));
    this.pileInfo = new Map(layout.piles.map((p) => [p.id, p]));
    this.names = board.names || {};     // each pile as a screen reader says it (the kernel's words)
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

  /** Fit the cards to the output area's width (pixels): the widest arrangement of the board
   * whose cards stay legible, as large as it fits; the board scrolls past the narrowest. */
  resize(width) {
    if (!width) return;             // hidden (a closed tab): keep the size it had
    this.width = width;
    if (chooseArrangement(this.model.get("board"), width - FELT_PADDING, MIN_UNIT) !== this.arrangement) {
      this.build();
    }
    const unit = Math.max(MIN_UNIT, Math.min(MAX_UNIT, Math.floor((width - FELT_PADDING) / this.layout.width)));
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
    const leaving = this.dirty.size && motionAllowed() ? this.departures() : null;
    for (const pid of this.dirty) this.drawPile(pid);
    this.moveRows();
    this.fitHeight();
    if (leaving) this.slideArrivals(leaving);
    this.dirty.clear();
    this.decorate();
    this.toolbar.update();
    this.board.setAttribute("aria-label", `${this.layout.name || "solitaire"}, deal ${this.model.get("deal")}`);
    this.cheerAWin();
  }

  // ------------------------------------------------------------ motion
  /** Before the dirty piles are redrawn: the cards about to leave them (past the part of
   * each pile that stays), with where they are drawn now (or where a drag dropped them). */
  departures() {
    const kept = new Map();
    const departed = [];
    const landing = this.landing && performance.now() - this.landing.at < LANDING_MS ? this.landing : null;
    this.landing = null;
    for (const pid of this.dirty) {
      const pileEl = this.pileEls.get(pid);
      if (!pileEl) continue;
      const count = keptCount(this.drawn.get(pid) || [], this.codes(pid));
      kept.set(pid, count);
      for (const el of pileEl.querySelectorAll(":scope > .sw-card")) {
        const index = Number(el.dataset.index);
        if (index < count) continue;
        const dropped = landing && landing.src === pid ? landing.rects[index - landing.index] : null;
        departed.push({ code: el.dataset.card, pid, index, rect: dropped || el.getBoundingClientRect() });
      }
    }
    return { kept, departed };
  }

  /** After the redraw: each card that arrived slides from where it left. */
  slideArrivals({ kept, departed }) {
    if (!departed.length) return;
    const arrived = [];
    for (const [pid, count] of kept) {
      for (const el of this.pileEls.get(pid).querySelectorAll(":scope > .sw-card")) {
        const index = Number(el.dataset.index);
        if (index >= count) arrived.push({ el, code: el.dataset.card, pid, index });
      }
    }
    const moves = matchSlides(departed, arrived).map(([a, d]) => ({ el: arrived[a].el, from: departed[d].rect }));
    slide(moves, (el, animation) => this.raise(el.parentElement, animation));
  }

  /** Keep a pile above the others while cards slide into it. */
  raise(pileEl, animation) {
    const count = this.raised.get(pileEl) || 0;
    if (!count) pileEl.classList.add("sw-landing");
    this.raised.set(pileEl, count + 1);
    const done = () => {
      const left = this.raised.get(pileEl) - 1;
      if (left > 0) {
        this.raised.set(pileEl, left);
      } else {
        this.raised.delete(pileEl);
        pileEl.classList.remove("sw-landing");
      }
    };
    animation.addEventListener("finish", done);
    animation.addEventListener("cancel", done);
  }

  /** A win (the game's status says so) gets a short celebration on the board: widget.css
   * animates it, unless the page asks for less motion. Not for a game shown already won. */
  cheerAWin() {
    const won = Boolean((this.model.get("status") || {}).won);
    if (won && this.won === false) {
      let k = 0;
      for (const pile of this.layout.piles) {
        if (pile.kind === "foundation") this.pileEls.get(pile.id).style.setProperty("--k", String(k++));
      }
      this.felt.classList.add("sw-celebrate");
      clearTimeout(this.celebration);
      this.celebration = setTimeout(() => this.felt.classList.remove("sw-celebrate"), CELEBRATION_MS);
    } else if (!won) {
      this.felt.classList.remove("sw-celebrate");
    }
    this.won = won;
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
    // Never lower than the tallest position of the line (the kernel's board_min_height), so
    // that the controls below stay put while a line is stepped through; once a replay has
    // played to the end, only as tall as the cards, so that it leaves no empty felt.
    const least = this.replayEnded ? 0 : this.model.get("board_min_height") || 0;
    const height = Math.max(boardHeight(this.layout.piles, this.shifts, this.extents, this.geometry), least);
    if (height !== this.height) {
      this.height = height;
      this.board.style.height = `calc(var(--u) * ${height})`;
    }
  }

  /** A replay ended at the line's end (``true``), or one starts (``false``): the felt fits
   * the cards, or keeps the line's tallest position again. */
  setReplayEnded(ended) {
    if (ended === this.replayEnded) return;
    this.replayEnded = ended;
    this.fitHeight();
  }

  /** What a pile shows: its cards' HTML, its size and class, its label; notes its extent. */
  pileParts(pile) {
    const pid = pile.id;
    const codes = this.codes(pid);
    this.drawn.set(pid, codes);
    const offsets = fanOffsets(codes, pile.fan, this.room.get(pid), this.geometry);
    const cards = [];
    for (let index = firstShown(pile.fan, codes.length, this.geometry); index < codes.length; index += 1) {
      const style = pile.fan === "none" || index === 0 ? "" : `--o:${offsets[index].toFixed(3)}`;
      cards.push(cardHTML(codes[index], escapeAttr(this.pileName(pid)), index, index === codes.length - 1, style));
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
      label: `${this.pileName(pid)}: ${codes.length} card${codes.length === 1 ? "" : "s"}`
        + (top ? `, top ${cardName(top)}` : ""),
    };
  }

  /** How a person names pile ``pid`` ("the third tableau pile"); its id only if none is sent. */
  pileName(pid) {
    return this.names[pid] || pid;
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
        pileEl.classList.toggle("sw-covered", this.covered(pile));
      }
      const caption = this.captionFor(pid, extras);
      if (caption) this.append(pileEl, caption);
    }
    for (const move of pileActions(legal, this.pileIds)) {
      const pileEl = this.pileEls.get(move.src);
      if (!pileEl) continue;
      const button = document.createElement("button");
      button.className = "sw-pile-action";
      const words = (this.model.get("action_words") || {})[move.text] || move.text;
      button.dataset.move = move.text;
      button.textContent = move.dst;
      button.title = words;
      button.setAttribute("aria-label", words);
      this.append(pileEl, button);
    }
    const stock = this.pileEls.get("stock");
    if (stock) stock.classList.toggle("sw-redeal-ok", legal.some((m) => m.dst === "stock"));
    if (this.pick) this.showPick(legal);
    for (const text of this.model.get("highlight") || []) this.showHint(readMove(text));
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

  covered(pile) {
    return coveredNow(pile, (pid) => this.codes(pid).length);
  }

  // ------------------------------------------------------------ picking (input.js drives these)
  /** Pick up the cards of ``pid`` from ``index`` to the top (or one card of a deck). Cards of
   * a covered pile, and face-down cards, are refused at once: nothing is picked up, and the
   * kernel is asked for the rule that forbids it (the message line shows its words). */
  setPick(pid, index) {
    const codes = this.codes(pid);
    if (index < 0 || index >= codes.length) return false;
    const kind = this.pileInfo.get(pid).kind;
    const single = kind === "deck" && index < codes.length - 1 && this.namesCards(pid);
    const n = single ? 1 : codes.length - index;
    if (this.covered(this.pileInfo.get(pid)) || codes.slice(index, index + n).some(isBack)) {
      this.clearPick();
      this.send({ type: "pick", src: pid, index, n });
      return false;
    }
    this.pick = { src: pid, index, card: codes[index], n, single };
    this.quiet();
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
