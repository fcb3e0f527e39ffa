// Legal moves arrive as text ("t3 f0", "t3 t5 4", "d2 r1c3 QH", "d2 build"): the front end
// reads them only to highlight targets and to send back exactly what the person chose.

/** "t3 t5 4" -> {src: "t3", dst: "t5", n: 4, card: null}; "d2 r1c3 QH" names a card. */
export function parseMove(text) {
  const [src, dst, third] = text.split(" ");
  if (third === undefined) return { src, dst, n: 1, card: null, text };
  if (/^\d+$/.test(third)) return { src, dst, n: Number(third), card: null, text };
  return { src, dst, n: 1, card: third, text };
}

/** The message that asks the kernel for a move. */
export function moveMessage(move) {
  const message = { type: "move", src: move.src, dst: move.dst, n: move.n };
  if (move.card) message.card = move.card;
  return message;
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
  if (srcKind === "deck" && !counted) return { src: pick.src, dst, n: 1, card: pick.card };
  return { src: pick.src, dst, n: pick.n, card: null };
}

/** Moves that are actions on a pile rather than card moves ("d2 build"). */
export function pileActions(legal, pileIds) {
  return legal.filter((m) => !pileIds.has(m.dst) && m.src !== "stock");
}
