// apitrace captures (docs/apitrace.md): a .trace dropped onto the page, or
// `apitrace dump` text dropped or pasted into the editor, becomes the
// equivalent scenario in the editor and plays; the report of the calls the
// simulator cannot make (and of what the capture leaves out) goes to the
// Problems view. The import is the module's (wasm/capture.go): the same as
// `d3dsim import`.

const MAX = 256 * 2 ** 20; // wasm/capture.go maxCaptureBytes

function notice(text) {
  window.dispatchEvent(new CustomEvent("d3dsim:notice", { detail: text }));
}

// The last import's report and the scenario it made: Problems shows the
// report while that scenario is the one loaded.
export const capture = { report: null, source: "" };

function announce(report, source) {
  capture.report = report;
  capture.source = source;
  window.dispatchEvent(new CustomEvent("d3dsim:capture", { detail: { report, source } }));
}

// isCapture says whether a file holds a capture (from its first bytes).
export async function isCapture(file) {
  const sim = await window.d3dsim.ready;
  const head = new Uint8Array(await file.slice(0, 8192).arrayBuffer());
  return sim.captureFormat(head) !== "scenario";
}

// openCapture imports a capture (bytes or dump text) and loads the
// scenario it is. It answers whether it loaded one.
export async function openCapture(data, name) {
  const sim = await window.d3dsim.ready;
  if (data.length > MAX) {
    notice(`${name} is ${data.length} bytes; the page reads captures up to 256 MiB (apitrace trim writes a shorter one).`);
    return false;
  }
  const res = sim.importCapture(data, name);
  if (!res.ok) {
    if (res.report) announce(res.report, "");
    notice(`${name}: ${res.error || "not an apitrace capture"}`);
    return false;
  }
  const loaded = sim.load(res.scenario);
  if (!loaded.ok) {
    notice(`${name}: the imported scenario does not load: ${loaded.error}`);
    return false;
  }
  const r = res.report;
  announce(r, res.scenario);
  const skipped = (r.unsupported || []).reduce((n, u) => n + u.count, 0);
  notice(skipped ? `${name}: ${r.calls} calls imported; ${skipped} not simulated (see Problems).` : "");
  sim.play();
  return true;
}

// openCaptureFile imports a dropped file when it is a capture; false
// means it is not one (a scenario).
export async function openCaptureFile(file) {
  if (!(await isCapture(file))) return false;
  await openCapture(new Uint8Array(await file.arrayBuffer()), file.name);
  return true;
}

// Pasting dump text into the empty editor (or over all of its text)
// imports it instead of pasting it.
export function installPaste(textarea) {
  textarea.addEventListener("paste", (e) => {
    const text = e.clipboardData?.getData("text/plain") || "";
    const sim = window.d3dsim;
    if (!text || typeof sim?.captureFormat !== "function") return;
    const whole = textarea.value.trim() === "" || (textarea.selectionStart === 0 && textarea.selectionEnd === textarea.value.length);
    if (!whole || sim.captureFormat(text.slice(0, 8192)) !== "apitrace dump") return;
    e.preventDefault();
    openCapture(text, "pasted dump");
  });
}
