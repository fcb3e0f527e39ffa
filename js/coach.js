// The coach's meter: a toggle in the toolbar, and a small line under the board that says
// whether the position is still winnable, names the move that lost the game, and offers one
// click back to just before it. It draws what the kernel sends (coach, verdict, coach_note,
// difficulty) and decides nothing: going back is a seek, checked by the kernel as any other.

import { make } from "./dom.js";

const MARKS = { winnable: "●", lost: "✕", "not known yet": "?" };

/** The meter's words for a note from the kernel ({text, verdict, judging, lost_text}). */
export function meterText(note) {
  if (!note || !note.text) return "";
  return note.lost_text ? `${note.text} · ${note.lost_text}` : note.text;
}

/** The difficulty's words ({text}), or "" while unknown. */
export function difficultyText(difficulty) {
  return difficulty && difficulty.text ? `deal ${difficulty.deal}: ${difficulty.text}` : "";
}

export function buildCoach(board) {
  const model = board.model;
  const toggle = make("label", "sw-switch", { title: "After each move, the solver judges whether the game can still be won" });
  const box = make("input", "", { type: "checkbox", "data-role": "coach-switch" });
  toggle.append(box, document.createTextNode(" coach"));
  box.addEventListener("change", () => {
    model.set("coach", box.checked);
    model.save_changes();
  });

  const meter = make("div", "sw-coach", { "data-role": "coach", "aria-live": "polite" });
  const mark = make("span", "sw-coach-mark", { "aria-hidden": "true" });
  const words = make("span", "sw-coach-words", { "data-role": "verdict" });
  const back = make("button", "sw-button sw-coach-back", { type: "button", "data-action": "coach-back" });
  const why = make("div", "sw-coach-why", { "data-role": "why" });
  const level = make("div", "sw-coach-difficulty", { "data-role": "difficulty" });
  meter.append(mark, words, back, why, level);
  back.addEventListener("click", () => {
    const note = model.get("coach_note") || {};
    if (Number.isInteger(note.back_to)) board.send({ type: "seek", index: note.back_to });
  });

  function update() {
    const on = Boolean(model.get("coach"));
    const note = model.get("coach_note") || {};
    const verdict = model.get("verdict") || "";
    box.checked = on;
    words.textContent = on ? meterText(note) : "";
    mark.textContent = on ? (note.judging ? "…" : MARKS[verdict] || "") : "";
    meter.dataset.verdict = on ? (note.judging ? "judging" : verdict) : "";
    const made = model.get("moves_made") || 0;
    const canGoBack = on && Number.isInteger(note.back_to) && made > note.back_to;
    back.hidden = !canGoBack;
    back.textContent = canGoBack ? `Go back to before move ${note.losing_move}` : "";
    why.textContent = on && note.why ? note.why : "";
    // The cards a lost position's explanation is about, outlined on the board.
    const outlined = on && Array.isArray(note.cards) ? note.cards.filter((card) => typeof card === "string") : [];
    for (const node of board.root.querySelectorAll(".sw-coach-card")) node.classList.remove("sw-coach-card");
    for (const card of outlined) {
      for (const node of board.root.querySelectorAll(`[data-card="${CSS.escape(card)}"]`)) node.classList.add("sw-coach-card");
    }
    level.textContent = difficultyText(model.get("difficulty"));
    meter.hidden = !on && !level.textContent;
  }

  /** The replay bar's words for the move shown, marked when it is the move that lost the game. */
  function marked(text) {
    const note = model.get("coach_note") || {};
    const lost = model.get("coach") && note.losing_move && note.losing_move === (model.get("moves_made") || 0);
    return lost && text ? `${text} ✕ this move lost the game` : text;
  }

  // A change of the coach's traits redraws through the board's queue (the toolbar's update
  // calls this one's), so that the replay bar's words are marked in the same frame.
  const redraw = () => board.queue(null);
  const events = ["coach", "verdict", "coach_note", "difficulty"].map((name) => `change:${name}`);
  for (const event of events) model.on(event, redraw);
  function destroy() {
    for (const event of events) model.off(event, redraw);
  }
  update();
  return { toggle, meter, update, destroy, marked };
}
