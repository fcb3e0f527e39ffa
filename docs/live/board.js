// The live board of the documentation: solwidget's own front end (the bundle built from js/,
// which the widget sends as its _esm, exactly as in Jupyter) on a SolitaireWidget that runs in
// Pyodide, in worker.js. Between them stands a model shim: the few calls of anywidget's model
// that the front end makes (get, set, save_changes, on, off, send), carried as the Jupyter
// widget protocol's messages (bridge.py).

const PYODIDE = new URL("../lite/static/pyodide/pyodide.mjs", import.meta.url).href;
const BRIDGE = new URL("bridge.py", import.meta.url).href;

class ModelShim {
  constructor(state, post) {
    this.state = { ...state };
    this.post = post;
    this.pending = {};
    this.listeners = new Map();
  }

  get(name) { return this.state[name]; }

  set(name, value) {
    this.state[name] = value;
    this.pending[name] = value;
    this.emit(`change:${name}`);
  }

  save_changes() {
    const state = this.pending;
    this.pending = {};
    if (Object.keys(state).length) this.post({ method: "update", state });
  }

  send(content) { this.post({ method: "custom", content }); }

  on(event, callback) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event).add(callback);
  }

  off(event, callback) {
    if (this.listeners.has(event)) this.listeners.get(event).delete(callback);
  }

  emit(event, ...args) {
    for (const callback of [...(this.listeners.get(event) || [])]) callback(...args);
  }

  update(state) {
    Object.assign(this.state, state);
    for (const name of Object.keys(state)) this.emit(`change:${name}`);
    this.emit("change");
  }
}

async function frontEnd(state) {
  if (!document.querySelector("style[data-solwidget]")) {
    const style = document.createElement("style");
    style.dataset.solwidget = "";
    style.textContent = state._css || "";
    document.head.appendChild(style);
  }
  const url = URL.createObjectURL(new Blob([state._esm], { type: "text/javascript" }));
  try {
    return (await import(url)).default;
  } finally {
    URL.revokeObjectURL(url);
  }
}

function start(root) {
  const gameBox = root.querySelector("[data-live=game]");
  const dealBox = root.querySelector("[data-live=deal]");
  const dealButton = root.querySelector("[data-live=start]");
  const status = root.querySelector("[data-live=status]");
  const place = root.querySelector("[data-live=board]");
  const asked = new URLSearchParams(window.location.search);
  const worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
  let model = null;
  let board = null;                 // the comm id of the widget on the page
  let cleanup = null;
  let widgetModule = null;
  const began = performance.now();

  const say = (text, kind = "") => { status.textContent = text; status.dataset.kind = kind; };
  const post = (data) => worker.postMessage({ kind: "receive", data });
  const deal = () => {
    say(`dealing ${gameBox.value}, deal ${dealBox.value}…`);
    worker.postMessage({ kind: "start", game: gameBox.value, deal: Number(dealBox.value) });
  };

  async function open(state) {
    if (cleanup) cleanup();
    place.textContent = "";
    widgetModule = widgetModule || await frontEnd(state);
    model = new ModelShim(state, post);
    cleanup = widgetModule.render({ model, el: place });
    say(`${state.game_id}, deal ${state.deal}: play by clicking a card, then where it goes`, "ready");
    root.dataset.ready = "true";
  }

  let queue = Promise.resolve();    // one message at a time: the first waits for the front end
  worker.onmessage = ({ data: message }) => { queue = queue.then(() => handle(message)); };

  async function handle({ kind, comm, data }) {
    if (kind === "ready") {
      for (const game of data.games) gameBox.add(new Option(game.replaceAll("_", " "), game));
      if (data.games.includes(asked.get("game"))) gameBox.value = asked.get("game");
      if (/^\d+$/.test(asked.get("deal") || "")) dealBox.value = asked.get("deal");
      for (const control of [gameBox, dealBox, dealButton]) control.disabled = false;
      root.dataset.loadSeconds = ((performance.now() - began) / 1000).toFixed(1);
      deal();
    } else if (kind === "comm_open" && data.state._model_name === "AnyModel") {
      board = comm;                 // the widget's own comm; its Layout has another
      await open(data.state);
    } else if (kind === "comm_msg" && comm === board && data.method === "update") {
      model.update(data.state);
    } else if (kind === "comm_msg" && comm === board && data.method === "custom") {
      model.emit("msg:custom", data.content, []);
    } else if (kind === "stage") {
      say(data.text);
    } else if (kind === "error") {
      say(`error: ${data.text}`, "error");
    }
  }
  worker.onerror = (event) => say(`the board's Python could not start: ${event.message}`, "error");
  dealButton.addEventListener("click", deal);
  gameBox.addEventListener("change", deal);
  say("loading Python in this page (Pyodide) and solwidget…");
  worker.postMessage({ kind: "boot", pyodideUrl: PYODIDE, bridgeUrl: BRIDGE });
}

for (const root of document.querySelectorAll("[data-live-board]")) start(root);
