// Input: click a card then a target, drag and drop with pointer events, double-click to a
// foundation, click the stock, and the keyboard (arrows move between piles, Enter picks up and
// drops, Escape puts down, u/r undo/redo, h hint). Every attempt goes to the kernel; a card
// that cannot be picked up (face down, or in a covered pile) is refused as it is picked up.
// By touch, a swipe scrolls (the felt sideways, the page up and down), a tap picks up and a
// second tap drops, and a press held still picks the cards up for a drag. A card dragged to
// the felt's edge scrolls it. A press on the board during a replay pauses the replay.

import { isBack } from "./cards.js";
import { moveForDrop, moveMessage, triedMove } from "./moves.js";

const DRAG_START = 5;          // pixels the pointer must travel before a press becomes a drag
const HOLD_MS = 350;           // a touch held this long without moving picks its cards up for a drag
const EDGE = 36;               // pixels from the felt's left or right edge where a drag scrolls it
const EDGE_SPEED = 14;         // pixels the felt scrolls per frame at its very edge

function pileOf(target) {
  return target instanceof Element ? target.closest("[data-pile]") : null;
}

/** Send the move for dropping the picked cards on ``dst``, and put them down here. */
function drop(board, dst) {
  const pick = board.pick;
  const srcKind = board.pileInfo.get(pick.src).kind;
  const move = moveForDrop(board.legal(), pick, dst, srcKind, board.pileIds);
  board.clearPick();
  board.send(moveMessage(move));
}

/** Click on the stock: turn a card, or turn the waste back over (the kernel decides). */
function stockAction(board) {
  const legal = board.legal();
  const move = legal.find((m) => m.src === "stock") || legal.find((m) => m.dst === "stock")
    || triedMove("stock", "waste");
  board.send(moveMessage(move));
}

/** A press (click or Enter) on pile ``pid`` at card ``index`` (-1: the pile, not a card). */
export function pressPile(board, pid, index) {
  if (board.toolbar.replaying()) {
    board.toolbar.pauseForBoard();
    return;
  }
  const kind = board.pileInfo.get(pid).kind;
  if (board.pick) {
    if (board.pick.src === pid) board.clearPick();
    else drop(board, pid);
    return;
  }
  if (kind === "stock") {
    stockAction(board);
    return;
  }
  const codes = board.codes(pid);
  const at = index >= 0 ? index : codes.length - 1;
  board.setPick(pid, at);
}

/** Double-click: send the card to a foundation where it fits (else let the kernel say why). */
export function sendHome(board, pid, index) {
  const codes = board.codes(pid);
  const card = codes[index];
  if (card === undefined || isBack(card)) return;
  board.clearPick();
  const foundations = [...board.pileInfo.values()].filter((p) => p.kind === "foundation").map((p) => p.id);
  const legal = board.legal();
  const home = legal.find((m) => m.src === pid && foundations.includes(m.dst)
    && (m.card ? m.card === card : index === codes.length - 1 && m.n === 1));
  if (home) board.send(moveMessage(home));
  else if (foundations.length) board.send(moveMessage(triedMove(pid, foundations[0], codes.length - index)));
}

function attachPointer(board) {
  let press = null;          // {pid, index, x, y, id}: a press on a face-up card
  let drag = null;           // {ghost, dx, dy}
  let swallowClick = false;

  function swallowNextClick() {
    swallowClick = true;
    setTimeout(() => { swallowClick = false; }, 0);
  }

  function down(event) {
    if (event.button !== 0 || event.target.closest(".sw-pile-action")) return;
    if (board.toolbar.replaying()) {        // the click that ends this press pauses the replay
      press = null;
      return;
    }
    const cardEl = event.target.closest(".sw-card");
    const pileEl = pileOf(event.target);
    if (!cardEl || !pileEl || isBack(cardEl.dataset.card)) return;
    press = { pid: pileEl.dataset.pile, index: Number(cardEl.dataset.index), x: event.clientX,
      y: event.clientY, id: event.pointerId, touch: event.pointerType === "touch", held: false };
    if (press.touch) {
      const held = press;
      held.timer = setTimeout(() => hold(held), HOLD_MS);
    }
  }

  /** A touch held still: its cards are picked up, and moving the finger now drags them. */
  function hold(held) {
    if (press !== held) return;
    if (board.pick && board.pick.src !== held.pid) board.clearPick();
    held.held = board.setPick(held.pid, held.index);
    if (!held.held) press = null;
  }

  /** While a held touch drags, the finger moves the cards, not the page. */
  function touchMove(event) {
    if (press && press.held && event.cancelable) event.preventDefault();
  }

  function move(event) {
    if (!press || event.pointerId !== press.id) return;
    if (!drag) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_START) return;
      if (press.touch && !press.held) {     // a swipe: the browser scrolls
        clearTimeout(press.timer);
        press = null;
        return;
      }
      if (board.pick && board.pick.src !== press.pid) board.clearPick();
      if (!board.setPick(press.pid, press.index)) {
        press = null;
        swallowNextClick();         // refused already: the click that ends this press asks nothing
        return;
      }
      drag = startDrag(board, press);
    }
    drag.x = event.clientX;
    drag.y = event.clientY;
    placeGhost(board, drag);
    edgeScroll(board, drag);
    event.preventDefault();
  }

  function up(event) {
    if (!press || event.pointerId !== press.id) return;
    clearTimeout(press.timer);
    if (press.held && !drag) swallowNextClick();     // held and let go: the cards stay picked up
    if (drag) {
      cancelAnimationFrame(drag.scrolling);
      const target = board.pick ? dropTarget(board, event.clientX, event.clientY) : null;
      if (target) {
        const rects = [...drag.ghost.children].map((card) => card.getBoundingClientRect());
        board.landing = { src: board.pick.src, index: board.pick.index, rects, at: performance.now() };
      }
      drag.ghost.remove();
      board.board.classList.remove("sw-dragging");
      swallowNextClick();
      if (target) drop(board, target.dataset.pile);
      else board.clearPick();
    }
    press = null;
    drag = null;
  }

  function click(event) {
    if (swallowClick) return;
    if (board.toolbar.replaying()) {
      board.toolbar.pauseForBoard();
      return;
    }
    const action = event.target.closest(".sw-pile-action");
    if (action) {
      board.send({ type: "move", move: action.dataset.move });
      return;
    }
    const pileEl = pileOf(event.target);
    if (!pileEl) {
      board.clearPick();
      return;
    }
    const cardEl = event.target.closest(".sw-card");
    const index = cardEl ? Number(cardEl.dataset.index) : -1;
    focusPile(board, pileEl.dataset.pile, false);
    pressPile(board, pileEl.dataset.pile, index);
  }

  function dblclick(event) {
    const cardEl = event.target.closest(".sw-card");
    const pileEl = pileOf(event.target);
    if (cardEl && pileEl && board.pileInfo.get(pileEl.dataset.pile).kind !== "stock") {
      sendHome(board, pileEl.dataset.pile, Number(cardEl.dataset.index));
    }
  }

  function contextMenu(event) {
    if (press && press.touch) event.preventDefault();      // a long press picks up, no menu
  }

  const surface = board.board;
  surface.addEventListener("pointerdown", down);
  surface.addEventListener("touchmove", touchMove, { passive: false });
  surface.addEventListener("contextmenu", contextMenu);
  window.addEventListener("pointermove", move, { passive: false });
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", up);
  surface.addEventListener("click", click);
  surface.addEventListener("dblclick", dblclick);
  return () => {
    surface.removeEventListener("pointerdown", down);
    surface.removeEventListener("touchmove", touchMove);
    surface.removeEventListener("contextmenu", contextMenu);
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", up);
    surface.removeEventListener("click", click);
    surface.removeEventListener("dblclick", dblclick);
  };
}

/** The pile under the pointer to drop on: a highlighted target if one is there (a pile lying
 * beneath another, as in Interlock's dropdown), else the topmost pile other than the source. */
function dropTarget(board, x, y) {
  const piles = [...new Set(document.elementsFromPoint(x, y).map(pileOf).filter(Boolean))]
    .filter((p) => p.dataset.pile !== board.pick.src);
  return piles.find((p) => p.classList.contains("sw-target")) || piles[0] || null;
}

/** The dragged cards under the pointer (``drag.x``, ``drag.y``: where it is on screen). */
function placeGhost(board, drag) {
  const rect = board.board.getBoundingClientRect();
  drag.ghost.style.left = `${drag.x - rect.left - drag.dx}px`;
  drag.ghost.style.top = `${drag.y - rect.top - drag.dy}px`;
}

/** Held near the felt's left or right edge, a drag scrolls the felt that way, faster nearer
 * the edge, frame by frame until the pointer leaves the edge or the felt's end is reached. */
function edgeScroll(board, drag) {
  if (drag.scrolling) return;
  const step = () => {
    drag.scrolling = 0;
    const felt = board.felt;
    const view = felt.getBoundingClientRect();
    const left = Math.max(view.left, 0);
    const right = Math.min(view.right, window.innerWidth);
    const speed = drag.x < left + EDGE ? -EDGE_SPEED * Math.min(1, (left + EDGE - drag.x) / EDGE)
      : drag.x > right - EDGE ? EDGE_SPEED * Math.min(1, (drag.x - right + EDGE) / EDGE) : 0;
    const before = felt.scrollLeft;
    if (speed) felt.scrollLeft = before + (Math.round(speed) || Math.sign(speed));
    if (felt.scrollLeft === before) return;
    placeGhost(board, drag);
    drag.scrolling = requestAnimationFrame(step);
  };
  step();
}

/** A copy of the picked cards that follows the pointer; the originals stay, dimmed. */
function startDrag(board, press) {
  const ghost = document.createElement("div");
  ghost.className = "sw-ghost";
  ghost.setAttribute("aria-hidden", "true");
  const picked = board.pileEls.get(press.pid).querySelectorAll(".sw-picked");
  const first = picked[0].getBoundingClientRect();
  for (const card of picked) {
    const copy = card.cloneNode(true);
    const rect = card.getBoundingClientRect();
    copy.removeAttribute("data-card");
    copy.removeAttribute("data-index");
    copy.style.transform = `translate(${rect.left - first.left}px, ${rect.top - first.top}px)`;
    ghost.appendChild(copy);
  }
  board.board.appendChild(ghost);
  board.board.classList.add("sw-dragging");
  return { ghost, dx: press.x - first.left, dy: press.y - first.top, x: press.x, y: press.y, scrolling: 0 };
}

// ------------------------------------------------------------------ keyboard
function focusPile(board, pid, moveFocus = true) {
  for (const [id, pileEl] of board.pileEls) pileEl.tabIndex = id === pid ? 0 : -1;
  if (moveFocus) board.pileEls.get(pid)?.focus();
}

/** The nearest pile from ``pid`` in direction (dx, dy), by the layout's coordinates. */
function neighbour(board, pid, dx, dy) {
  const from = board.pileInfo.get(pid);
  let best = null;
  let bestScore = Infinity;
  for (const pile of board.pileInfo.values()) {
    const ddx = pile.x - from.x;
    const ddy = pile.y - from.y;
    const along = ddx * dx + ddy * dy;
    if (pile.id === pid || along <= 0.05) continue;
    const across = Math.abs(ddx * dy) + Math.abs(ddy * dx);
    const score = along + 3 * across;
    if (score < bestScore) {
      best = pile.id;
      bestScore = score;
    }
  }
  return best;
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function attachKeyboard(board) {
  function key(event) {
    if (!board.root.contains(event.target) || event.target.closest("input, button, select, textarea")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const pileEl = pileOf(event.target);
    const pid = pileEl?.dataset.pile;
    if (ARROWS[event.key] && pid) {
      const next = neighbour(board, pid, ...ARROWS[event.key]);
      if (next) focusPile(board, next);
    } else if ((event.key === "Enter" || event.key === " ") && pid) {
      keyPress(board, pid);
    } else if (event.key === "Escape") {
      board.clearPick();
    } else if (event.key === "u" || event.key === "r" || event.key === "h") {
      board.send({ type: "action", name: { u: "undo", r: "redo", h: "hint" }[event.key] });
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  }
  // On the window, in the capture phase: the notebook's own shortcuts (r: raw cell, arrows:
  // cell selection) listen on the document and would otherwise take these keys first.
  window.addEventListener("keydown", key, true);
  return () => window.removeEventListener("keydown", key, true);
}

/** Enter on a pile: pick up its top card; Enter again there takes one more card of the run
 * (then puts them down); Enter on another pile drops them there. */
export function keyPress(board, pid) {
  const pick = board.pick;
  if (pick && pick.src === pid) {
    const codes = board.codes(pid);
    let next = pick.index - 1;
    if (pick.single) while (next >= 0 && isBack(codes[next])) next -= 1;   // a deck: the next card down
    if (next >= 0 && !isBack(codes[next])) board.setPick(pid, next);
    else board.clearPick();
    return;
  }
  pressPile(board, pid, -1);
}

export function attachInput(board) {
  const pointer = attachPointer(board);
  const keyboard = attachKeyboard(board);
  return () => {
    pointer();
    keyboard();
  };
}
