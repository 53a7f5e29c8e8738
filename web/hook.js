// The pages' first script, run before the WebAssembly module and the ES
// modules (index.html and embed.html load it as a classic script, which
// browsers also run from file://): window.d3dsim exists from the first
// moment, so a script can await d3dsim.ready before the module has loaded;
// the module's bridge (wasm/bridge_js.go) fills in the rest and resolves it.
(() => {
  let resolve, reject;
  const ready = new Promise((res, rej) => { resolve = res; reject = rej; });
  ready.catch(() => {}); // a failed load is shown in the page, not as an unhandled rejection
  window.d3dsim = { ready, notice: "" };
  window.__d3dsimReady = { resolve, reject };
  // Opened from disk, the modules and main.wasm do not load: say why
  // instead of "loading" forever (docs/embedding.md).
  // A standalone page (web/standalone.js) carries both and starts.
  if (location.protocol === "file:" && !window.d3dsimStandalone) {
    addEventListener("DOMContentLoaded", () => {
      const s = document.getElementById("stage-status");
      s.textContent = "d3dsim cannot start from file://: browsers do not load its modules and main.wasm from disk.\nServe this directory over HTTP (any static server, e.g. python3 -m http.server) or open the published site.";
      s.classList.add("failed");
    });
  }
})();
