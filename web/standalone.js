// The standalone page: one HTML file that carries a scenario AND the
// simulator — main.wasm gzipped and base64-encoded, wasm_exec.js, the
// panel's modules and its styles — and replays the scenario with no server,
// opened from disk (file://), to the same trace and pixels. For a bug
// report that must still replay when the site has moved on
// (docs/inspect.md "Export").
//
// Browsers load neither module scripts nor main.wasm from file://, so
// nothing in the file is fetched: the page's modules become data: URLs
// named in an import map (each module's "./x.js" imports rewritten to the
// bare specifier "d3dsim/x.js", which the map resolves from any module,
// data: URLs included), hook.js and wasm_exec.js are inline scripts, and
// boot.js decompresses the inline module with DecompressionStream
// (instantiateInline). The scenario sits in a JSON script element that
// app.js loads and plays.

// ENTRY is the page's module; the others are found from its imports.
const ENTRY = "app.js";

// IMPORT matches a static import of a sibling module, the keyword from or
// import, then the quoted ./NAME.js (the page's modules import nothing else).
const IMPORT = /(\bfrom\s*|\bimport\s*)(["'])\.\/([\w-]+\.js)\2/g;

// get fetches name beside base as text, or throws naming it.
async function get(base, name) {
  const resp = await fetch(new URL(name, base));
  if (!resp.ok) throw new Error(`${name}: HTTP ${resp.status}`);
  return resp.text();
}

// modules is every module the page loads from ENTRY on, each with its
// sibling imports rewritten to "d3dsim/NAME".
export async function modules(base) {
  const out = new Map();
  const todo = [ENTRY];
  while (todo.length) {
    const name = todo.pop();
    if (out.has(name)) continue;
    const src = await get(base, name);
    out.set(name, src.replace(IMPORT, (m, kw, q, dep) => {
      todo.push(dep);
      return `${kw}${q}d3dsim/${dep}${q}`;
    }));
  }
  return out;
}

const isGzip = (b) => b.length > 2 && b[0] === 0x1f && b[1] === 0x8b;
const isWasm = (b) => b.length > 4 && b[0] === 0 && b[1] === 0x61 && b[2] === 0x73 && b[3] === 0x6d;

// gzip compresses bytes with the browser's CompressionStream.
async function gzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

// wasmGzip is main.wasm gzipped: the site's main.wasm.gz when it serves
// one as it is (a host that sends it with Content-Encoding gives the
// module itself, compressed again here), else main.wasm compressed here.
export async function wasmGzip(base) {
  try {
    const resp = await fetch(new URL("main.wasm.gz", base));
    if (resp.ok) {
      const b = new Uint8Array(await resp.arrayBuffer());
      if (isGzip(b)) return b;
      if (isWasm(b)) return gzip(b);
    }
  } catch {
    // none: main.wasm below
  }
  const resp = await fetch(new URL("main.wasm", base));
  if (!resp.ok) throw new Error(`main.wasm: HTTP ${resp.status}`);
  const b = new Uint8Array(await resp.arrayBuffer());
  if (!isWasm(b)) throw new Error("main.wasm is not a WebAssembly module");
  return gzip(b);
}

// base64 encodes bytes (a FileReader: no string of a million arguments).
function base64(bytes, type = "application/octet-stream") {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => {
      const s = String(r.result);
      resolve(s.slice(s.indexOf(",") + 1));
    };
    r.onerror = () => reject(r.error);
    r.readAsDataURL(new Blob([bytes], { type }));
  });
}

// inlineScript makes JavaScript safe inside a <script> element: "</script"
// would end it and "<!--" would change how the parser reads the rest.
const inlineScript = (js) => js.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");

// jsonScript is a value as a JSON script element's text.
const jsonScript = (v) => JSON.stringify(v).replace(/</g, "\\u003c");

// replaceOnce replaces the one occurrence of what in html, or throws: the
// page's index.html no longer has what the standalone page replaces.
function replaceOnce(html, what, by) {
  const i = html.indexOf(what);
  if (i < 0) throw new Error(`index.html has no ${what}`);
  return html.slice(0, i) + by + html.slice(i + what.length);
}

// escapeHTML makes text safe as element content.
const escapeHTML = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

// standaloneHTML is the standalone page of text, built from the d3dsim at
// base (the directory of index.html, main.wasm and the modules). progress,
// when given, hears what it is doing.
export async function standaloneHTML(text, base, progress = () => {}) {
  progress("reading the page and its modules");
  const [index, css, hook, wasmExec, mods] = await Promise.all([
    get(base, "index.html"), get(base, "style.css"), get(base, "hook.js"), get(base, "wasm_exec.js"), modules(base),
  ]);
  progress("compressing main.wasm");
  const gz = await wasmGzip(base);
  progress("encoding");
  const imports = {};
  for (const [name, src] of mods) {
    imports[`d3dsim/${name}`] = "data:text/javascript;base64," + await base64(new TextEncoder().encode(src), "text/javascript");
  }
  const wasm = await base64(gz);
  if (/<\/style/i.test(css)) throw new Error("style.css holds </style");
  const title = (/^\s*#\s*(.+)$/m.exec(text) || [, "a scenario"])[1].trim().slice(0, 80);
  let html = index;
  html = html.replace(/<title>[^<]*<\/title>/, `<title>d3dsim — ${escapeHTML(title)} (standalone)</title>`);
  html = replaceOnce(html, `<link rel="stylesheet" href="style.css">`, `<style>\n${css}</style>`);
  html = replaceOnce(html, `<script src="hook.js"></script>`,
    `<script>window.d3dsimStandalone = true;</script>\n<script>\n${inlineScript(hook)}</script>`);
  html = replaceOnce(html, `<script src="wasm_exec.js"></script>`, `<script>\n${inlineScript(wasmExec)}</script>`);
  html = replaceOnce(html, `<script type="module" src="app.js"></script>`,
    `<script type="importmap">${jsonScript({ imports })}</script>\n<script type="module">import "d3dsim/${ENTRY}";</script>`);
  html = replaceOnce(html, "</body>",
    `<!-- The scenario this page replays (app.js loads it), and main.wasm: gzip, then base64 (boot.js). -->
<script type="application/json" id="d3dsim-scenario">${jsonScript(text)}</script>
<script type="text/plain" id="d3dsim-wasm">${wasm}</script>
</body>`);
  return html;
}

// embeddedScenario is the scenario a standalone page carries, null on any
// other page.
export function embeddedScenario() {
  const el = document.getElementById("d3dsim-scenario");
  if (!el) return null;
  try {
    const text = JSON.parse(el.textContent);
    return typeof text === "string" ? text : null;
  } catch {
    return null;
  }
}
