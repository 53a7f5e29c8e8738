// Loading the WebAssembly module, for the full page (app.js) and the embed
// (embed.js) alike: boot() starts main.wasm and resolves with window.d3dsim
// once the module is ready, or throws with a message that says what usually
// went wrong (each page shows it in its own way). It asks for two files
// beside the page, by relative URL — wasm_exec.js (a <script> of the page)
// and main.wasm — so a static host serves the site from any sub-path
// (docs/embedding.md).

// instantiate fetches main.wasm beside the page and instantiates it for go.
// A host that sends the wrong MIME type for .wasm (streaming refuses it),
// or an HTTP error (a failed build on the dev server), gets the plain path,
// which says which.
export async function instantiate(go, url = "main.wasm") {
  if (WebAssembly.instantiateStreaming) {
    try {
      return await WebAssembly.instantiateStreaming(fetch(url), go.importObject);
    } catch (err) {
      console.warn("d3dsim: instantiateStreaming failed, retrying without streaming:", err);
    }
  }
  let resp;
  try {
    resp = await fetch(url);
  } catch (err) {
    throw new Error(`${url}: ${err.message}${hint()}`);
  }
  if (!resp.ok) {
    throw new Error(`${url}: HTTP ${resp.status}${hint()}\n${(await resp.text()).slice(0, 4000)}`);
  }
  return WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
}

// hint says what usually went wrong.
function hint() {
  if (location.protocol === "file:") return " (browsers do not fetch main.wasm from file://: serve the directory over HTTP, e.g. python3 -m http.server)";
  return " (is main.wasm published beside this page? `make site` writes it into dist/)";
}

// boot starts the module and resolves with window.d3dsim once it is ready.
// onExit, when given, hears of the program exiting later (the module never
// exits while the page runs); without it that is an uncaught error.
export async function boot(onExit) {
  if (typeof Go !== "function") {
    throw new Error("wasm_exec.js did not load: it belongs beside this page (`make site` writes it into dist/; `go run .` at the repo root serves it)");
  }
  const go = new Go();
  const { instance } = await instantiate(go);
  go.run(instance).then(() => {
    const err = new Error("the WebAssembly program exited; see the console");
    if (!onExit) throw err;
    onExit(err);
  });
  return window.d3dsim.ready;
}

// fragment reads a URL fragment's &-separated keys ("#demo=x&view=flow"),
// decoded where they decode: both pages take their options from it.
export function fragment(hash) {
  const out = {};
  for (const kv of hash.replace(/^#/, "").split("&")) {
    const i = kv.indexOf("=");
    if (i <= 0) continue;
    try {
      out[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
    } catch {
      out[kv.slice(0, i)] = kv.slice(i + 1);
    }
  }
  return out;
}
