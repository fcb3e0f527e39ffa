// Cards drawn in code: HTML and CSS with suit glyphs, no card art.
// A card arrives as its code ("QH", "TD") or as "back" for a face-down or hidden card; a run
// of N hidden cards arrives as one "back*N" entry (see expandCodes).

const RANK_NAMES = {
  A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
  8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king",
};
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
export const SUIT_GLYPHS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RANK_LABELS = { T: "10" };

export const BACK = "back";
const RUN = /^back\*(\d+)$/;
const CODE = /^[A2-9TJQK][CDHS]$/;

export function isBack(code) {
  return code === BACK;
}

/** A pile trait's entries, one per card: "back*3" stands for three backs. */
export function expandCodes(synced) {
  const codes = [];
  for (const entry of synced || []) {
    const run = RUN.exec(entry);
    if (run) for (let i = Number(run[1]); i > 0; i -= 1) codes.push(BACK);
    else codes.push(CODE.test(entry) ? entry : BACK);      // anything unknown is drawn as a back
  }
  return codes;
}

/** "queen of hearts", or "a face-down card". */
export function cardName(code) {
  if (isBack(code)) return "a face-down card";
  return `${RANK_NAMES[code[0]]} of ${SUIT_NAMES[code[1]]}`;
}

/** One card as HTML: data-card carries the code ("back" for a face-down card). Only a card
 * shown ``whole`` (the top of its pile) gets its centre and far corner: beneath, in a fan,
 * only the corner shows, and fewer elements draw faster. ``style`` positions it in its pile.
 * ``pileName`` says where it lies ("the third tableau pile"), as the kernel words it.
 * Codes are checked by expandCodes; pile names are the kernel's words (plain letters). */
export function cardHTML(code, pileName, index, whole, style, extraClass = "") {
  const head = `data-card="${code}" data-index="${index}" role="img" aria-label="${cardName(code)}, on ${pileName}"`
    + (style ? ` style="${style}"` : "");
  if (isBack(code)) return `<div class="sw-card sw-back${extraClass}" ${head}></div>`;
  const rank = code[0];
  const suit = code[1];
  const glyph = SUIT_GLYPHS[suit];
  const label = (RANK_LABELS[rank] || rank) + glyph;
  let inner = `<span class="sw-corner">${label}</span>`;
  if (whole) {
    const face = "JQK".includes(rank);
    inner += `<span class="sw-centre${face ? " sw-face" : ""}">${face ? rank + glyph : glyph}</span>`
      + `<span class="sw-corner sw-far">${label}</span>`;
  }
  return `<div class="sw-card sw-suit-${suit}${extraClass}" ${head}>${inner}</div>`;
}
