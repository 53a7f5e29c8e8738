// Sharing a scenario too long for a link (docs/embedding.md "Long
// scenarios"). A link carries the whole scenario in its fragment; past
// MAX_LINK characters chat apps, mail clients, issue trackers and some
// servers cut or refuse it, so Share offers two files instead and says why:
// the scenario as a .d3ds file, and a single self-contained HTML repro that
// embeds the scenario and runs it with d3dsim loaded from the site it was
// exported from (an iframe of that site's index.html, handed the scenario by
// postMessage, inbox.js: so the host needs no CORS headers).

import { el } from "./view-common.js";

// MAX_LINK is the longest link Share puts in the address bar (characters
// of the whole URL: about 8 KB).
export const MAX_LINK = 8192;

// siteURL is the absolute URL of the directory of the current page: where
// index.html, main.wasm and wasm_exec.js are.
export function siteURL() {
  return new URL(".", location.href).href;
}

// localOnly says whether url points at this computer (localhost, 127.x,
// [::1]): a link or repro made there opens nowhere else.
export function localOnly(url) {
  let host = "";
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) || host === "[::1]" || host === "::1" || host === "0.0.0.0";
}

// LOCAL_NOTE is what Share says of a link or file made from this machine's
// own server.
export const LOCAL_NOTE = "this link only works on this machine";

// escapeHTML makes text safe as element content.
function escapeHTML(s) {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

// reproHTML is a single HTML file that runs text with the d3dsim at site.
// The scenario sits in a <pre> (readable, and its textContent is the exact
// text); the script hands it to the framed app when the app says ready.
export function reproHTML(text, site) {
  const lines = text.split("\n").length;
  const app = new URL("index.html#from=parent", site).href;
  const origin = new URL(site).origin;
  const target = origin === "null" ? "*" : origin;
  const title = (/^\s*#\s*(.+)$/m.exec(text) || [, "a scenario"])[1].trim().slice(0, 80);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="d3dsim">
<title>d3dsim repro — ${escapeHTML(title)}</title>
<style>
  html, body { margin: 0; height: 100%; background: #0b0e14; color: #c9d1d9; font: 13px/1.4 system-ui, sans-serif; }
  body { display: flex; flex-direction: column; }
  header { flex: none; display: flex; gap: 12px; align-items: baseline; padding: 6px 12px; border-bottom: 1px solid #242c38; }
  header b { color: #e6edf3; }
  a { color: #8ab4ff; }
  iframe { flex: 1; border: 0; width: 100%; display: block; }
  details { flex: none; max-height: 30vh; overflow: auto; border-top: 1px solid #242c38; padding: 4px 12px; }
  pre { margin: 4px 0; font: 12px/1.4 ui-monospace, monospace; }
</style>
</head>
<body>
<header>
  <b>d3dsim repro</b>
  <span>${escapeHTML(title)} — the scenario (${lines} ${lines === 1 ? "line" : "lines"}) is in this file; it runs with d3dsim from
  <a href="${escapeHTML(site)}" target="_blank" rel="noopener">${escapeHTML(site)}</a>${localOnly(site) ? ` <b class="local">(${escapeHTML(new URL(site).host)} is the computer this file was made on: ${LOCAL_NOTE}, and this file only runs there)</b>` : ""}</span>
</header>
<iframe id="d3dsim" src="${escapeHTML(app)}" title="d3dsim" allow="clipboard-write"></iframe>
<details><summary>the scenario</summary><pre id="scenario">
${escapeHTML(text)}</pre></details>
<script>
  // Exported by d3dsim's Share (web/share.js): hand the scenario to the
  // framed app once it is ready (web/inbox.js).
  (() => {
    const frame = document.getElementById("d3dsim");
    const text = document.getElementById("scenario").textContent;
    window.addEventListener("message", (e) => {
      if (e.source !== frame.contentWindow || !e.data || e.data.d3dsim !== "ready") return;
      frame.contentWindow.postMessage({ d3dsim: "load", scenario: text }, ${JSON.stringify(target)});
    });
  })();
</script>
</body>
</html>
`;
}

// save offers data as a download named name.
export function save(name, data, type) {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = el("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}

let styled = false;

function style() {
  if (styled) return;
  styled = true;
  const s = document.createElement("style");
  s.textContent = `
.share-long { position: fixed; left: 50%; top: 80px; transform: translateX(-50%); z-index: 40; width: min(640px, 92vw);
  background: #161c26; border: 1px solid #34404f; border-radius: 10px; padding: 14px 16px; box-shadow: 0 12px 40px rgba(0,0,0,.6); }
.share-long h2 { margin: 0 0 8px; font-size: 15px; color: #e6edf3; }
.share-long p { margin: 6px 0; }
.share-long .row { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 12px; }`;
  document.head.append(s);
}

// shareLong shows why a link is not offered and the two files that are.
// text is the scenario, url the link it would have been.
export function shareLong(text, url, toast) {
  style();
  document.querySelector(".share-long")?.remove();
  const box = el("div", "share-long");
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-label", "Share a long scenario");
  const site = siteURL();
  const kb = (n) => (n / 1024).toFixed(1) + " KB";
  box.append(
    el("h2", "", "This scenario is too long for a link"),
    el("p", "why", `As a link it would be ${url.length.toLocaleString("en-US")} characters (${kb(url.length)}); links over ${kb(MAX_LINK)} get cut by chat apps, mail clients, issue trackers and some servers, so nothing was put in the address bar. Share it as a file instead:`),
    el("p", "muted", `scenario.d3ds is the text (drop it onto a d3dsim page, or run it with d3dsim run); d3dsim-repro.html is one self-contained page with the scenario inside that runs it with d3dsim from ${site}.`),
  );
  if (localOnly(site)) box.append(el("p", "local", `${new URL(site).host} is this computer: the long link and d3dsim-repro.html only work on this machine (${LOCAL_NOTE}); scenario.d3ds works anywhere.`));
  const row = el("div", "row");
  const b = (id, text, fn, cls) => {
    const x = el("button", cls || "", text);
    x.dataset.share = id;
    x.addEventListener("click", fn);
    row.append(x);
    return x;
  };
  b("d3ds", "Download scenario.d3ds", () => save("scenario.d3ds", text, "text/plain"), "primary");
  b("html", "Download d3dsim-repro.html", () => save("d3dsim-repro.html", reproHTML(text, site), "text/html"), "primary");
  b("copy", "Copy the long link anyway", async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast?.(`Long link copied (${url.length} characters)`);
    } catch {
      toast?.("No clipboard permission");
    }
  });
  b("close", "Close", () => box.remove(), "ghost");
  box.append(row);
  document.body.append(box);
  return box;
}
