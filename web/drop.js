// Opening a scenario file: drop a .d3ds (a file Share offered for a
// scenario too long for a link, share.js) onto the page and it loads and
// plays, as a link would. The page's poll (app.js) shows its text. An
// apitrace capture (.trace or dump text) is imported first (capture.js).

import { openCaptureFile } from "./capture.js";

const MAX = 1 << 20; // the scenario parser's limit (docs/scenario.md)

function notice(text) {
  window.dispatchEvent(new CustomEvent("d3dsim:notice", { detail: text }));
}

// openFile loads a dropped file into the simulator.
export async function openFile(file) {
  const sim = await window.d3dsim.ready;
  if (await openCaptureFile(file)) return true;
  if (file.size > MAX) {
    notice(`${file.name} is ${file.size} bytes; a scenario holds at most 1 MiB.`);
    return false;
  }
  const res = sim.load(await file.text());
  if (!res.ok) {
    notice(`${file.name} does not load: ${res.error}`);
    return false;
  }
  notice("");
  sim.play();
  return true;
}

const isFiles = (e) => [...(e.dataTransfer?.types || [])].includes("Files");

window.addEventListener("dragover", (e) => {
  if (!isFiles(e)) return;
  e.preventDefault();
  e.dataTransfer.dropEffect = "copy";
});
window.addEventListener("drop", (e) => {
  if (!isFiles(e)) return;
  e.preventDefault(); // not: the browser navigating to the file
  const f = e.dataTransfer.files[0];
  if (f) openFile(f);
});
