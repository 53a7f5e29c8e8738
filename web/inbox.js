// A scenario handed over by the parent window (docs/embedding.md "Passing a
// scenario from the page"): a page that frames d3dsim with "from=parent" in
// the fragment (index.html#from=parent, embed.html#from=parent&view=flow)
// gets {d3dsim: "ready"} once the module runs and may answer with
// {d3dsim: "load", scenario: TEXT}; the frame loads and plays it and answers
// {d3dsim: "loaded", ok, error}. The exported single-file repro (share.js)
// works this way, so a scenario too long for a link needs no CORS from the
// host that serves main.wasm.
//
// Only the parent window is listened to, and only when the fragment asks
// for it: a scenario from a parent is what a link would carry (any page can
// link to d3dsim with #s=), run in the same sandbox.

export function fromParent() {
  return window.parent !== window && /(^#|&)from=parent(&|$)/.test(location.hash);
}

if (fromParent()) {
  window.d3dsim.ready.then((sim) => {
    window.addEventListener("message", (e) => {
      if (e.source !== window.parent || !e.data || e.data.d3dsim !== "load" || typeof e.data.scenario !== "string") return;
      const res = sim.load(e.data.scenario);
      if (res.ok) {
        if (e.data.play !== false) sim.play();
      } else {
        const msg = `The scenario this page was given does not load (${res.error}).`;
        window.dispatchEvent(new CustomEvent("d3dsim:notice", { detail: msg }));
      }
      window.parent.postMessage({ d3dsim: "loaded", ok: res.ok, error: res.error }, "*");
    });
    // Nothing secret in it: any page may know that d3dsim is ready.
    window.parent.postMessage({ d3dsim: "ready" }, "*");
  }, () => {});
}
