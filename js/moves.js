// Legal moves arrive as text ("t3 f0", "t3 t5 4", "d2 r1c3 QH", "d2 build"). The front end
// reads them only to draw: which cards they take and where they may go. A move goes back to
// the kernel as its text, which the kernel reads (and checks) once.

/** "t3 t5 4" -> {src: "t3", dst: "t5", n: 4, card: null, text}; "d2 r1c3 QH" names a card. */
export function readMove(text) {
  const [src, dst, third] = text.split(" ");
  if (third === undefined) return { src, dst, n: 1, card: null, text };
  if (/^\d+$/.test(third)) return { src, dst, n: Number(third), card: null, text };
  return { src, dst, n: 1, card: third, text };
}

/** A move the person tried that is not among the legal ones, in the move notation, for the
 * kernel to say why it is refused: "SRC DST", "SRC DST N", or "SRC DST CARD" for a card
 * named inside a pile. */
export function triedMove(src, dst, n = 1, card = null) {
  const third = card || (n === 1 ? "" : String(n));
  return { src, dst, n, card, text: third ? `${src} ${dst} ${third}` : `${src} ${dst}` };
}

/** The message that asks the kernel for a move: the move's text. */
export function moveMessage(move) {
  return { type: "move", move: move.text };
}

/** Legal moves that take the picked cards: ``pick`` is {src, n, card} (card: the lowest one). */
export function movesForPick(legal, pick) {
  return legal.filter((m) => m.src === pick.src && (m.card ? m.card === pick.card : m.n === pick.n));
}

/** The move to ask for when the picked cards are dropped on pile ``dst``. A legal move is
 * sent as it is; anything else goes to the kernel too, which explains why it is refused.
 * A card leaving a deck (pile kind "deck") is named, unless its moves are counted. */
export function moveForDrop(legal, pick, dst, srcKind, pileIds) {
  const found = movesForPick(legal, pick).find((m) => m.dst === dst);
  if (found) return found;
  const counted = legal.some((m) => m.src === pick.src && !m.card && pileIds.has(m.dst));
  if (srcKind === "deck" && !counted) return triedMove(pick.src, dst, 1, pick.card);
  return triedMove(pick.src, dst, pick.n);
}

/** Moves that are actions on a pile rather than card moves ("d2 build"). */
export function pileActions(legal, pileIds) {
  return legal.filter((m) => !pileIds.has(m.dst) && m.src !== "stock");
}
