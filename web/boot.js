// Loading the WebAssembly module for the pages that are not the full app
// (embed.html; the full page, app.js, has its own copy of these lines). It
// asks for two files beside the page, by relative URL — wasm_exec.js (a
// <script> of the page) and main.wasm — so a static host serves the site
// from any sub-path (docs/embedding.md).

// instantiate fetches main.wasm beside the page and instantiates it for go.
// A host that sends the wrong MIME type for .wasm (streaming refuses it)
// gets the plain path.
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
    throw new Error(`${url}: HTTP ${resp.status}${hint()}\n${(await resp.text()).slice(0, 2000)}`);
  }
  return WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
}

// hint says what usually went wrong.
function hint() {
  if (location.protocol === "file:") return " (browsers do not fetch main.wasm from file://: serve the directory over HTTP, e.g. python3 -m http.server)";
  return " (is main.wasm published beside this page? `make site` writes it into dist/)";
}

// boot starts the module and resolves with window.d3dsim once it is ready.
export async function boot() {
  if (typeof Go !== "function") {
    throw new Error("wasm_exec.js did not load: it belongs beside this page (`make site` writes it into dist/)");
  }
  const go = new Go();
  const { instance } = await instantiate(go);
  go.run(instance).then(() => {
    throw new Error("the WebAssembly program exited; see the console");
  });
  return window.d3dsim.ready;
}
