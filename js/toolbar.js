// The toolbar (deal number, New, Restart, Undo, Redo, Hint, Autoplay, Solve, switches), the
// status line and message (drawn by render.js), the replay bar, and the solver's panel.

import { buildCoach } from "./coach.js";
import { make } from "./dom.js";

const BUTTONS = [
  ["new", "New", "Deal the number in the box (the next deal if unchanged)"],
  ["restart", "Restart", "Back to the start of this deal"],
  ["undo", "Undo", "Take back the last move (u)"],
  ["redo", "Redo", "Play the move again (r)"],
  ["hint", "Hint", "Ask the solver for a good move (h)"],
  ["autoplay", "Autoplay", "Move the cards that can safely go to the foundations"],
  ["solve", "Solve", "Run the solver on this position"],
];

function formatNumber(value, digits = 0) {
  if (typeof value !== "number") return "–";
  return value.toLocaleString("en-US", { maximumFractionDigits: digits });
}

/** The solver's panel in words: while it runs, what it spent of its budget; once it ends,
 * its one summary ("won in 88 moves (12,345 states in 1.2 s)"). */
export function progressText(progress) {
  if (!progress.running && progress.summary) return progress.summary;
  const states = progress.max_states ? `${formatNumber(progress.expanded)} of ${formatNumber(progress.max_states)} states`
    : `${formatNumber(progress.expanded)} states`;
  const seconds = progress.max_seconds ? `${formatNumber(progress.elapsed, 1)} of ${formatNumber(progress.max_seconds, 1)} s`
    : `${formatNumber(progress.elapsed, 1)} s`;
  return `searching… ${states} · ${seconds} · ${formatNumber(progress.rate)} states/s`;
}

/** How much of its budget the search has spent, from 0 to 1 (null: no budget). */
export function budgetSpent(progress) {
  const parts = [];
  if (progress.max_states) parts.push((progress.expanded || 0) / progress.max_states);
  if (progress.max_seconds) parts.push((progress.elapsed || 0) / progress.max_seconds);
  return parts.length ? Math.min(1, Math.max(...parts)) : null;
}

// The replay bar's speeds: seconds between two moves (the kernel's sync.REPLAY_SPEEDS).
const SPEEDS = [["1", "slow"], ["0.5", "normal"], ["0.2", "fast"], ["0.05", "fastest"]];
// Solve's budgets: seconds, "" for no limit (the kernel's sync.SOLVE_BUDGETS).
const BUDGETS = [["1", "1 s"], ["10", "10 s"], ["60", "60 s"], ["", "no limit"]];

// The replay bar's icons, drawn (no font needs to have them): paths in a 16 x 16 box.
const ICONS = {
  first: "M3 3h2v10H3zM13 3v10L6 8z",
  back: "M12 3v10L5 8z",
  play: "M4 3v10l9-5z",
  pause: "M4 3h3v10H4zM9 3h3v10H9z",
  forward: "M4 3v10l7-5zM12 3h2v10h-2z",
  last: "M3 3v10l7-5zM11 3h2v10h-2z",
};

/** An icon of ICONS as an inline SVG element (decorative: its button carries the name). */
function icon(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "sw-icon");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[name]);
  path.setAttribute("fill", "currentColor");
  svg.appendChild(path);
  return svg;
}

/** The speed choice that matches ``delay`` seconds (null: none does). */
function speedOf(delay) {
  const found = SPEEDS.find(([value]) => Number(value) === delay);
  return found ? found[0] : null;
}

export function buildToolbar(board) {
  const model = board.model;
  const element = make("div", "sw-toolbar", { role: "toolbar", "aria-label": "game controls" });
  const title = make("span", "sw-title");
  const dealLabel = make("label", "sw-deal-label", {}, "Deal ");
  // Text, not type="number": a deal number may have 20 digits, more than a JavaScript
  // number holds exactly, so it stays text from the box to the kernel, which checks it.
  const dealInput = make("input", "sw-deal", { type: "text", inputmode: "numeric", autocomplete: "off",
    spellcheck: "false", maxlength: "40", "data-role": "deal", "aria-label": "deal number" });
  dealLabel.appendChild(dealInput);
  element.append(title, dealLabel);
  const buttons = new Map();
  for (const [name, label, help] of BUTTONS) {
    const button = make("button", "sw-button", { "data-action": name, title: help, type: "button" }, label);
    buttons.set(name, button);
    element.appendChild(button);
  }
  // Solve's budget, beside it: the time the solver may search (the solve_seconds trait).
  const budget = make("select", "sw-budget", { "data-role": "budget", "aria-label": "time the solver may search",
    title: "How long Solve may search (Stop ends it sooner)" });
  for (const [value, text] of BUDGETS) budget.appendChild(make("option", "", { value }, text));
  buttons.get("solve").after(budget);
  budget.addEventListener("change", () => {
    model.set("solve_seconds", budget.value === "" ? null : Number(budget.value));
    model.save_changes();
  });
  const colours = make("label", "sw-colours", { title: "Four colours: clubs green, diamonds blue" });
  const colourBox = make("input", "", { type: "checkbox", "data-role": "four-colour" });
  colours.append(colourBox, document.createTextNode(" 4 colours"));
  element.appendChild(colours);
  // Switches the kernel reads (traits): each a checkbox that sets its trait.
  const switches = [["auto_foundations", "auto-foundations", " auto home", "After each move, send the cards that can safely go to the foundations"],
    ["show_ids", "show-ids", " pile ids", "Label the piles with their ids, as Python names them (w.play(\"t3 f0\"))"]]
    .map(([trait, role, text, help]) => {
      const label = make("label", "sw-switch", { title: help });
      const box = make("input", "", { type: "checkbox", "data-role": role });
      label.append(box, document.createTextNode(text));
      element.appendChild(label);
      box.addEventListener("change", () => {
        model.set(trait, box.checked);
        model.save_changes();
      });
      return [trait, box];
    });

  const coach = buildCoach(board);
  element.appendChild(coach.toggle);

  const footer = make("div", "sw-footer");
  // The replay bar: it steps through the line (the moves made and those undone) by seeking.
  const timeline = make("div", "sw-timeline", { "data-role": "replay-bar", role: "group", tabindex: "0",
    "aria-label": "replay: arrow keys step, Home and End go to the ends, space plays" });
  const steps = new Map();
  const controls = make("div", "sw-replay-controls");
  for (const [name, help] of [["first", "First position (Home)"], ["back", "One move back (←)"],
    ["play", "Play / pause (space)"], ["forward", "One move forward (→)"], ["last", "Last position (End)"]]) {
    const button = make("button", "sw-button sw-step", { "data-step": name, type: "button", title: help,
      "aria-label": help });
    button.appendChild(icon(name));
    steps.set(name, button);
    controls.appendChild(button);
  }
  const speed = make("select", "sw-speed", { "data-role": "speed", "aria-label": "replay speed", title: "Replay speed" });
  for (const [value, text] of SPEEDS) speed.appendChild(make("option", "", { value }, text));
  speed.value = "0.5";
  controls.appendChild(speed);
  // The speed is the kernel's replay_delay: every replay of the bar plays at it.
  speed.addEventListener("change", () => {
    model.set("replay_delay", Number(speed.value));
    model.save_changes();
  });
  /** Seconds between two moves of a replay. */
  function delay() {
    const value = Number(model.get("replay_delay"));
    return Number.isFinite(value) && value >= 0 ? value : Number(speed.value);
  }
  const where = make("span", "sw-where", { "data-role": "position" });
  controls.appendChild(where);
  const scrubber = make("input", "sw-scrubber", { type: "range", min: "0", max: "0", value: "0", step: "1",
    "data-role": "scrubber", "aria-label": "position in the game: moves made" });
  const currentMove = make("div", "sw-current-move", { "data-role": "current-move", "aria-live": "polite" });
  timeline.append(scrubber, controls, currentMove);
  const solverView = make("div", "sw-solver", { "data-role": "solver", "aria-live": "polite" });
  const solverText = make("div", "sw-solver-progress", { "data-role": "solver-summary" });
  const solverBar = make("progress", "sw-solver-bar", { "data-role": "solver-bar", max: "1", value: "0",
    "aria-label": "share of the solver's budget spent" });
  const solverLine = make("ol", "sw-solver-line", { "data-role": "solver-line" });
  const stopButton = make("button", "sw-button", { "data-action": "stop", type: "button" }, "Stop");
  const replayButton = make("button", "sw-button", { "data-action": "replay", type: "button" }, "Replay the win");
  solverView.append(solverText, solverBar, solverLine, stopButton, replayButton);
  const rules = make("details", "sw-rules", { "data-role": "rules" });
  const rulesText = make("p", "");
  const rulebook = make("p", "sw-rulebook", { "data-role": "rulebook" });
  rules.append(make("summary", "", {}, "Rules"), rulesText, rulebook);
  footer.append(coach.meter, timeline, solverView, rules);

  function send(name, extra = {}) {
    board.send({ type: "action", name, ...extra });
  }

  element.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button) return;
    const name = button.dataset.action;
    if (name === "new") {
      // The box's text as typed: the kernel applies the rule for deal numbers, and says why
      // it refuses one in an error about the "deal" field (refuseDeal).
      const typed = dealInput.value.trim();
      if (typed !== "" && typed !== String(model.get("deal"))) send("new", { deal: typed });
      else send("new");
    } else {
      send(name);
    }
  });
  dealInput.addEventListener("keydown", (event) => {
    if (event.key === "Enter") buttons.get("new").click();
  });
  dealInput.addEventListener("input", () => refuseDeal(""));

  /** Show in the box why the kernel refused its text as a deal number ("" clears it); the
   * message line says it too, as it says every refusal. */
  function refuseDeal(reason) {
    dealInput.setCustomValidity(reason);
    dealInput.title = reason || (model.get("board") || {}).deal_rule || "";
    if (reason) {
      dealInput.setAttribute("aria-invalid", "true");
      dealInput.reportValidity();
    } else {
      dealInput.removeAttribute("aria-invalid");
    }
  }
  footer.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action]");
    if (button) send(button.dataset.action);
  });

  // Playing steps with the browser's clock, at the bar's speed; a replay that the kernel runs
  // (w.replay) is paused with Stop. Any seek while playing goes on from there.
  let playing = null;
  function seek(index) {
    const length = model.get("history_length") || 0;
    const target = Math.max(0, Math.min(length, index));
    if (target !== (model.get("moves_made") || 0)) board.send({ type: "seek", index: target });
    return target;
  }
  function pause() {
    clearTimeout(playing);
    playing = null;
    update();
  }
  function tick() {
    const made = model.get("moves_made") || 0;
    if (made >= (model.get("history_length") || 0)) {
      pause();
      board.setReplayEnded(true);
      return;
    }
    seek(made + 1);
    playing = setTimeout(tick, 1000 * delay());
  }
  /** Play the line from where the board is, at once (the kernel's "play": Replay the win). */
  function play() {
    clearTimeout(playing);
    board.setReplayEnded(false);
    playing = setTimeout(tick, 0);
    update();
  }
  /** Is a replay running (the browser's or the kernel's)? */
  function replaying() {
    return Boolean(playing) || model.get("busy") === "replaying";
  }
  /** The person pressed the board during a replay: pause it, and say so. */
  function pauseForBoard() {
    const made = model.get("moves_made") || 0;
    const length = model.get("history_length") || 0;
    if (model.get("busy") === "replaying") send("stop");
    if (playing) pause();
    board.say(`replay paused at move ${made} of ${length}: play (space) goes on; a move of yours `
      + "replaces the rest of the line", "info");
  }
  function step(name) {
    const made = model.get("moves_made") || 0;
    if (name === "play") {
      if (model.get("busy") === "replaying") send("stop");
      else if (playing) pause();
      else {
        if (made >= (model.get("history_length") || 0)) seek(0);
        board.setReplayEnded(false);
        playing = setTimeout(tick, made < (model.get("history_length") || 0) ? 0 : 1000 * delay());
        update();
      }
      return;
    }
    if (playing) pause();
    const length = model.get("history_length") || 0;
    seek({ first: 0, back: made - 1, forward: made + 1, last: length }[name]);
  }
  controls.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-step]");
    if (button) step(button.dataset.step);
  });
  const KEYS = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last", " ": "play" };
  // On the window, in the capture phase, as input.js's keys: the notebook's own shortcuts
  // (arrows: cell selection) would otherwise take these keys first.
  function replayKey(event) {
    if (!timeline.contains(event.target)) return;
    if (event.target === speed || event.ctrlKey || event.metaKey || event.altKey) return;
    const name = KEYS[event.key] || (event.target === scrubber ? null : { ArrowDown: "back", ArrowUp: "forward" }[event.key]);
    if (!name) return;
    event.preventDefault();
    event.stopPropagation();
    step(name);
  }
  window.addEventListener("keydown", replayKey, true);
  function destroy() {
    coach.destroy();
    window.removeEventListener("keydown", replayKey, true);
    clearTimeout(playing);
    playing = null;
  }
  colourBox.addEventListener("change", () => {
    model.set("four_colour", colourBox.checked);
    model.save_changes();
  });
  let seekTimer = null;
  scrubber.addEventListener("input", () => {
    clearTimeout(seekTimer);
    seekTimer = setTimeout(() => board.send({ type: "seek", index: Number(scrubber.value) }), 30);
  });

  let lastBusy = "";
  let lastLine = "";
  let shownDeal = null;
  function update() {
    const drawn = model.get("board") || {};
    const status = model.get("status") || {};
    const made = model.get("moves_made") || 0;
    const length = model.get("history_length") || 0;
    const busy = model.get("busy") || "";
    // A replay that played to the end leaves the felt fitted to the cards until the next
    // replay or another line (render.js, fitHeight).
    const line = `${model.get("deal")}:${length}`;
    if (busy === "replaying" || line !== lastLine) board.setReplayEnded(false);
    else if (lastBusy === "replaying" && length > 0 && made >= length) board.setReplayEnded(true);
    lastBusy = busy;
    lastLine = line;
    for (const [trait, box] of switches) box.checked = Boolean(model.get(trait));
    board.root.classList.toggle("sw-show-ids", Boolean(model.get("show_ids")));
    board.root.classList.toggle("sw-solving", busy === "solving");
    title.textContent = drawn.name || "";
    title.title = drawn.summary || "";
    rulesText.textContent = drawn.summary || "";
    rulebook.textContent = drawn.rulebook ? `Every rule, and every decision where a source was unclear: ${drawn.rulebook} (solwidget's repository and documentation).` : "";
    // The box shows a new deal; text typed in it stays until then (a refused one included).
    const deal = String(model.get("deal"));
    if (deal !== shownDeal && document.activeElement !== dealInput) {
      dealInput.value = deal;
      shownDeal = deal;
    }
    if (!dealInput.hasAttribute("aria-invalid")) dealInput.title = drawn.deal_rule || "";
    buttons.get("undo").disabled = made === 0;
    buttons.get("redo").disabled = made >= length;
    buttons.get("solve").disabled = busy === "solving";
    colourBox.checked = Boolean(model.get("four_colour"));
    board.root.classList.toggle("sw-four-colour", Boolean(model.get("four_colour")));
    // Counters a game keeps beside its piles (the stock's redeals used) follow the status.
    const counters = Object.entries(model.get("extras") || {})
      .filter(([, value]) => typeof value === "number").map(([key, value]) => `${key}: ${value}`);
    board.status.textContent = [status.text || "", ...counters].filter(Boolean).join(" · ");
    board.status.classList.toggle("sw-won", Boolean(status.won));
    board.status.classList.toggle("sw-stuck", Boolean(status.stuck));
    board.showMessage();
    scrubber.max = String(length);
    scrubber.value = String(made);
    where.textContent = `${made} / ${length}`;
    currentMove.textContent = coach.marked(model.get("move_words") || "");
    coach.update();
    // Every state sets every button: none stays as an earlier state left it.
    const running = replaying();
    const solving = busy === "solving";
    const playButton = steps.get("play");
    if (playButton.dataset.icon !== (running ? "pause" : "play")) {
      playButton.dataset.icon = running ? "pause" : "play";
      playButton.replaceChildren(icon(running ? "pause" : "play"));
    }
    playButton.setAttribute("aria-pressed", String(running));
    playButton.disabled = solving || length === 0;
    steps.get("first").disabled = steps.get("back").disabled = solving || made === 0;
    steps.get("last").disabled = steps.get("forward").disabled = solving || made >= length;
    scrubber.disabled = solving;
    const speedNow = speedOf(Number(model.get("replay_delay")));
    if (speedNow !== null && document.activeElement !== speed) speed.value = speedNow;
    const seconds = model.get("solve_seconds");
    const chosen = seconds === null || seconds === undefined ? "" : String(seconds);
    if (![...budget.options].some((option) => option.value === chosen)) {
      budget.appendChild(make("option", "", { value: chosen }, `${chosen} s`));     // set from Python
    }
    if (document.activeElement !== budget) budget.value = chosen;
    budget.disabled = solving;
    buttons.get("solve").title = `Run the solver on this position, for ${seconds ? `${seconds} s at most` : "as long as it takes (Stop ends it)"}`;
    const progress = model.get("solver_progress") || {};
    const solution = model.get("solution") || [];
    solverView.hidden = Object.keys(progress).length === 0;
    solverText.textContent = solverView.hidden ? "" : progressText(progress);
    const spent = progress.running ? budgetSpent(progress) : null;
    solverBar.hidden = !progress.running;
    if (spent === null) solverBar.removeAttribute("value");
    else solverBar.value = spent;
    const words = progress.running ? [] : progress.line_words || [];
    solverLine.replaceChildren(...words.map((text) => make("li", "", {}, text)));
    solverLine.hidden = words.length === 0;
    stopButton.hidden = busy === "";
    replayButton.textContent = solution.length ? "Replay the win" : "Step through the best line";
    replayButton.hidden = words.length === 0 || busy !== "";
    // The bar shows once there is a line to step through, or one offered (its speed first).
    timeline.hidden = length === 0 && replayButton.hidden;
  }

  return { element, footer, update, destroy, play, replaying, pauseForBoard, refuseDeal };
}
