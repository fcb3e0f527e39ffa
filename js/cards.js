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

/** One card element: data-card carries the code ("back" for a face-down card). */
export function cardElement(code, pileId) {
  const card = el("div", "sw-card");
  card.dataset.card = code;
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", `${cardName(code)} on ${pileId}`);
  if (isBack(code)) {
    card.classList.add("sw-back");
    return card;
  }
  const rank = code[0];
  const suit = code[1];
  card.classList.add(`sw-suit-${suit}`);
  const label = RANK_LABELS[rank] || rank;
  const glyph = SUIT_GLYPHS[suit];
  const corner = el("span", "sw-corner");
  corner.append(el("span", "sw-rank", label), el("span", "sw-pip", glyph));
  const far = corner.cloneNode(true);
  far.className = "sw-corner sw-far";
  const face = "JQK".includes(rank);
  const middle = el("span", face ? "sw-centre sw-face" : "sw-centre", face ? rank + glyph : glyph);
  card.append(corner, middle, far);
  return card;
}
