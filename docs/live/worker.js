// The live board's worker: Pyodide from the site's own copy (the lessons' site,
// lite/static/pyodide/) with solwidget's wheel and the wheels it needs, and bridge.py.
// Python runs here, not in the page, so the page keeps drawing while a search runs.

const PACKAGES = ["solwidget", "pysol-cards", "anywidget", "ipywidgets", "traitlets", "comm", "psygnal",
  "typing-extensions", "ipython", "decorator", "ipython-pygments-lexers", "jedi", "parso",
  "matplotlib-inline", "prompt-toolkit", "wcwidth", "pygments", "stack-data", "asttokens",
  "executing", "pure-eval"];

let pyodide = null;
let bridge = null;

function toJs(value) {
  return value && typeof value.toJs === "function"
    ? value.toJs({ dict_converter: Object.fromEntries, create_pyproxies: false }) : value;
}

const stage = (text) => self.postMessage({ kind: "stage", data: { text } });

async function boot({ pyodideUrl, bridgeUrl }) {
  stage("loading Python (Pyodide)…");
  const { loadPyodide } = await import(pyodideUrl);
  pyodide = await loadPyodide({ indexURL: new URL(".", pyodideUrl).href });
  stage("loading solwidget and the packages it needs…");
  await pyodide.loadPackage(PACKAGES, { messageCallback: () => {} });
  const source = await (await fetch(bridgeUrl)).text();
  stage("starting solwidget (its first import compiles it: the slowest step)…");
  bridge = pyodide.globals.get("dict")();
  pyodide.runPython(source, { globals: bridge });
  bridge.set("post", (kind, comm, data) => self.postMessage({ kind, comm, data: toJs(data) }));
  return { games: toJs(bridge.get("games")()) };
}

function call(name, ...args) {
  const py = args.map((value) => pyodide.toPy(value));
  try {
    bridge.get(name)(...py);
  } finally {
    for (const value of py) if (value && value.destroy) value.destroy();
  }
}

self.onmessage = async ({ data }) => {
  try {
    if (data.kind === "boot") self.postMessage({ kind: "ready", data: await boot(data) });
    else if (data.kind === "start") call("start", data.game, data.deal);
    else if (data.kind === "receive") call("receive", data.data);
  } catch (error) {
    self.postMessage({ kind: "error", data: { text: String((error && error.message) || error) } });
  }
};
