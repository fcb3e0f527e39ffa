// The toolbar (deal number, New, Restart, Undo, Redo, Hint, Autoplay, Solve), the status
// line and message (drawn by render.js), the position slider, and the solver's live view.

const BUTTONS = [
  ["new", "New", "Deal the number in the box (the next deal if unchanged)"],
  ["restart", "Restart", "Back to the start of this deal"],
  ["undo", "Undo", "Take back the last move (u)"],
  ["redo", "Redo", "Play the move again (r)"],
  ["hint", "Hint", "Ask the solver for a good move (h)"],
  ["autoplay", "Autoplay", "Move the cards that can safely go to the foundations"],
  ["solve", "Solve", "Run the solver on this position"],
];

function make(tag, className, attrs = {}, text = undefined) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function formatNumber(value, digits = 0) {
  if (typeof value !== "number") return "–";
  return value.toLocaleString("en-US", { maximumFractionDigits: digits });
}

/** The solver's progress in words: "12,345 states · frontier 2,001 · depth 34 · ...". */
export function progressText(progress) {
  const parts = [`${formatNumber(progress.expanded)} states`, `frontier ${formatNumber(progress.frontier)}`,
    `depth ${formatNumber(progress.depth)}`, `${formatNumber(progress.rate)} states/s`,
    `${formatNumber(progress.elapsed, 1)} s`];
  if (progress.status) parts.push(progress.status);
  else if (progress.running) parts.push("searching…");
  return parts.join(" · ");
}

/**
 * The deal number typed in the box, checked against the game's limits (`[first, last]` as
 * text) without ever becoming a JavaScript number: `{deal: "123"}` (digits, no leading
 * zeros), `{}` for an empty box, or `{reason}` saying what is wrong.
 */
export function checkedDeal(text, limits) {
  const typed = String(text ?? "").trim();
  if (typed === "") return {};
  const [first, last] = (limits || ["1", "99999999999999999999"]).map((bound) => BigInt(bound));
  const accepted = `a deal number is a whole number from ${first} to ${last}`;
  if (!/^[0-9]+$/.test(typed)) return { reason: `${accepted}, not "${typed.slice(0, 30)}"` };
  const number = BigInt(typed);
  if (number < first || number > last) return { reason: `${accepted}: ${typed.slice(0, 30)} is out of range` };
  return { deal: number.toString() };
}

export function buildToolbar(board) {
  const model = board.model;
  const element = make("div", "sw-toolbar", { role: "toolbar", "aria-label": "game controls" });
  const title = make("span", "sw-title");
  const dealLabel = make("label", "sw-deal-label", {}, "Deal ");
  // Text, not type="number": a deal number may have 20 digits, more than a JavaScript
  // number holds exactly, so it stays text (checked as a BigInt) from the box to the kernel.
  const dealInput = make("input", "sw-deal", { type: "text", inputmode: "numeric", autocomplete: "off",
    spellcheck: "false", "data-role": "deal", "aria-label": "deal number" });
  dealLabel.appendChild(dealInput);
  element.append(title, dealLabel);
  const buttons = new Map();
  for (const [name, label, help] of BUTTONS) {
    const button = make("button", "sw-button", { "data-action": name, title: help, type: "button" }, label);
    buttons.set(name, button);
    element.appendChild(button);
  }
  const colours = make("label", "sw-colours", { title: "Four colours: clubs green, diamonds blue" });
  const colourBox = make("input", "", { type: "checkbox", "data-role": "four-colour" });
  colours.append(colourBox, document.createTextNode(" 4 colours"));
  element.appendChild(colours);

  const footer = make("div", "sw-footer");
  const timeline = make("div", "sw-timeline");
  const scrubber = make("input", "sw-scrubber", { type: "range", min: "0", max: "0", value: "0", step: "1",
    "data-role": "scrubber", "aria-label": "position in the game: moves made" });
  const where = make("span", "sw-where", { "data-role": "position" });
  timeline.append(scrubber, where);
  const solverView = make("div", "sw-solver", { "data-role": "solver", "aria-live": "polite" });
  const solverText = make("div", "sw-solver-progress");
  const solverLine = make("div", "sw-solver-line");
  const stopButton = make("button", "sw-button", { "data-action": "stop", type: "button" }, "Stop");
  const replayButton = make("button", "sw-button", { "data-action": "replay", type: "button" }, "Replay the win");
  solverView.append(solverText, solverLine, stopButton, replayButton);
  const rules = make("details", "sw-rules", { "data-role": "rules" });
  const rulesText = make("p", "");
  rules.append(make("summary", "", {}, "Rules"), rulesText);
  footer.append(timeline, solverView, rules);

  function send(name, extra = {}) {
    board.send({ type: "action", name, ...extra });
  }

  element.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button) return;
    const name = button.dataset.action;
    if (name === "new") {
      const typed = checkedDeal(dealInput.value, model.get("deal_limits"));
      if (typed.reason) {
        refuseDeal(typed.reason);
      } else if (typed.deal !== undefined && typed.deal !== String(model.get("deal"))) {
        send("new", { deal: typed.deal });
      } else {
        send("new");
      }
    } else {
      send(name);
    }
  });
  dealInput.addEventListener("keydown", (event) => {
    if (event.key === "Enter") buttons.get("new").click();
  });
  dealInput.addEventListener("input", () => refuseDeal(""));

  /** Show why the box's text is no deal number ("" clears it), in the box and the message line. */
  function refuseDeal(reason) {
    dealInput.setCustomValidity(reason);
    dealInput.title = reason;
    if (reason) {
      dealInput.setAttribute("aria-invalid", "true");
      board.message.textContent = reason;
      board.message.dataset.kind = "error";
      dealInput.reportValidity();
    } else {
      dealInput.removeAttribute("aria-invalid");
    }
  }
  footer.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action]");
    if (button) send(button.dataset.action);
  });
  colourBox.addEventListener("change", () => {
    model.set("four_colour", colourBox.checked);
    model.save_changes();
  });
  let seekTimer = null;
  scrubber.addEventListener("input", () => {
    clearTimeout(seekTimer);
    seekTimer = setTimeout(() => board.send({ type: "seek", index: Number(scrubber.value) }), 30);
  });

  function update() {
    const drawn = model.get("board") || {};
    const status = model.get("status") || {};
    const made = model.get("moves_made") || 0;
    const length = model.get("history_length") || 0;
    const busy = model.get("busy") || "";
    title.textContent = drawn.name || "";
    title.title = drawn.summary || "";
    rulesText.textContent = drawn.summary || "";
    if (document.activeElement !== dealInput) dealInput.value = String(model.get("deal"));
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
    board.message.textContent = model.get("message") || "";
    board.message.dataset.kind = model.get("message_kind") || "";
    scrubber.max = String(length);
    scrubber.value = String(made);
    where.textContent = `${made} / ${length}`;
    timeline.hidden = length === 0;
    const progress = model.get("solver_progress") || {};
    const solution = model.get("solution") || [];
    solverView.hidden = Object.keys(progress).length === 0;
    solverText.textContent = solverView.hidden ? "" : progressText(progress);
    const line = progress.best_line || [];
    solverLine.textContent = line.length ? `best line: ${line.slice(0, 16).join(", ")}${line.length > 16 ? " …" : ""}` : "";
    stopButton.hidden = busy === "";
    replayButton.hidden = solution.length === 0 || busy !== "";
  }

  return { element, footer, update };
}
