// Cards drawn in code: HTML and CSS with suit glyphs, no card art.
// A card arrives as its code ("QH", "TD") or as "back" for a face-down or hidden card.

const RANK_NAMES = {
  A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
  8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king",
};
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
export const SUIT_GLYPHS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RANK_LABELS = { T: "10" };

export const BACK = "back";

export function isBack(code) {
  return code === BACK;
}

/** "queen of hearts", or "a face-down card". */
export function cardName(code) {
  if (isBack(code)) return "a face-down card";
  return `${RANK_NAMES[code[0]]} of ${SUIT_NAMES[code[1]]}`;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** One card element: data-card carries the code ("back" for a face-down card). Only a card
 * shown ``whole`` (the top of its pile) gets its centre and far corner: beneath, in a fan,
 * only the corner shows, and fewer elements draw faster. */
export function cardElement(code, pileId, whole = true) {
  const card = el("div", "sw-card");
  card.dataset.card = code;
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", `${cardName(code)} on ${pileId}`);
  if (isBack(code)) {
    card.className = "sw-card sw-back";
    return card;
  }
  const rank = code[0];
  const suit = code[1];
  card.className = `sw-card sw-suit-${suit}`;
  const glyph = SUIT_GLYPHS[suit];
  const label = (RANK_LABELS[rank] || rank) + glyph;
  card.appendChild(el("span", "sw-corner", label));
  if (whole) {
    const face = "JQK".includes(rank);
    card.append(el("span", face ? "sw-centre sw-face" : "sw-centre", face ? rank + glyph : glyph),
      el("span", "sw-corner sw-far", label));
  }
  return card;
}
