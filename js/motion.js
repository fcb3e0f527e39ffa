// Cards that move like cards: after a redraw, each card that arrived in a pile slides from
// where it was drawn before (a FLIP animation: first, last, invert, play), none under
// prefers-reduced-motion. Which card went where is read from the cards themselves: a card
// is known by its code (data-card) and the pile it was in.

import { isBack } from "./cards.js";

export const SLIDE_MS = 180;

/** How many of a pile's cards stayed as they were: the length of the common bottom part. */
export function keptCount(before, after) {
  let kept = 0;
  while (kept < before.length && kept < after.length && before[kept] === after[kept]) kept += 1;
  return kept;
}

/** Pairs [arrived index, departed index]: each arrived card ({code, pid, index}) with the
 * card that left for it. The same code first (the same pile and place first: a card that
 * did not move); else a card turned over on the way (the stock to the waste, and back). */
export function matchSlides(departed, arrived) {
  const used = new Set();
  const pairs = [];
  const take = (a, test) => {
    const d = departed.findIndex((card, i) => !used.has(i) && test(card));
    if (d < 0) return false;
    used.add(d);
    pairs.push([a, d]);
    return true;
  };
  const waiting = [];
  arrived.forEach((card, a) => {
    const same = (other) => other.code === card.code;
    if (!take(a, (other) => same(other) && other.pid === card.pid && other.index === card.index)
      && !take(a, same)) waiting.push(a);
  });
  for (const a of waiting) {
    const card = arrived[a];
    const turned = (other) => isBack(other.code) !== isBack(card.code);
    if (!take(a, (other) => turned(other) && other.pid === card.pid && other.index === card.index)) {
      take(a, (other) => turned(other) && other.pid !== card.pid);
    }
  }
  return pairs;
}

/** Does the page ask for less motion? */
const REDUCED = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;

export function motionAllowed() {
  return !(REDUCED && REDUCED.matches);
}

/** Slide each element from ``from`` (a rect on screen) to where it is now drawn; the pile it
 * lands in is raised above the others while its cards travel. */
export function slide(moves, raise) {
  const now = moves.map(({ el }) => el.getBoundingClientRect());      // one layout for all
  moves.forEach(({ el, from }, k) => {
    const dx = from.left - now[k].left;
    const dy = from.top - now[k].top;
    if (Math.abs(dx) < 0.5 && Math.abs(dy) < 0.5) return;
    const animation = el.animate([{ translate: `${dx}px ${dy}px` }, { translate: "0px 0px" }],
      { duration: SLIDE_MS, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" });
    raise(el, animation);
  });
}
