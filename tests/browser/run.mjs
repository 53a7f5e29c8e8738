// Runs the browser test files, the longest first (make test-browser):
//
//   node run.mjs [--jobs N] [node's --test-reporter=R --test-reporter-destination=D ...] [FILE.test.mjs ...]
//
// node --test runs its files in the order of their names, so with two at a
// time the longest file (tutorials.test.mjs, a quarter of the suite's time)
// started last and ran alone at the end: on 2 cores the wall clock was the
// whole suite's test time over two plus that tail. Here the files start in
// the order of LONGEST (measured, one file at a time), then any file not in
// it by name; with two at a time the two jobs end close together.
// The reporters and their destinations are node --test's flags (make test
// passes them: spec to stdout, junit to its report); the exit status is 1
// when a test failed, as node --test's.

import { run } from "node:test";
import * as reporters from "node:test/reporters";
import { PassThrough } from "node:stream";
import { createWriteStream, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const DIR = path.dirname(fileURLToPath(import.meta.url));

// LONGEST: the files by their test time, longest first: the last CI run's
// (2026-11-28, evening, two files at a time beside the Go targets) less
// this round's cuts, measured one file at a time (docs/testing.md):
// inspect 192 s, screenshots 175, page 169, hostile 147, newcomer 140,
// tutorials about 115 (436 before), dead-ends 98, site 88, newcomer-shots
// 77, gallery 48, devserver 44, args 39, shaders 34, limits 34,
// share-origin 30, capture 21, markdown 1. A file missing here runs after
// these, by name.
export const LONGEST = [
  "inspect.test.mjs",
  "screenshots.test.mjs",
  "page.test.mjs",
  "hostile.test.mjs",
  "newcomer.test.mjs",
  "tutorials.test.mjs",
  "dead-ends.test.mjs",
  "site.test.mjs",
  "newcomer-shots.test.mjs",
  "gallery.test.mjs",
  "devserver.test.mjs",
  "args.test.mjs",
  "shaders.test.mjs",
  "limits.test.mjs",
  "share-origin.test.mjs",
  "capture.test.mjs",
  "markdown.test.mjs",
];

// ordered lists the test files to run: those named, or every *.test.mjs
// here, LONGEST's first.
export function ordered(named = []) {
  const all = named.length ? named.map((f) => path.basename(f)) : readdirSync(DIR).filter((f) => f.endsWith(".test.mjs")).sort();
  const rank = (f) => (LONGEST.includes(f) ? LONGEST.indexOf(f) : LONGEST.length);
  return all.map((f, i) => [rank(f), i, f]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, , f]) => f);
}

function main(argv) {
  let jobs = 2;
  const outs = []; // [reporter, destination]
  const files = [];
  const patterns = [];
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const value = () => inline ?? argv[++i];
    if (flag === "--jobs" || flag === "--test-concurrency") jobs = Number(value());
    else if (flag === "--test-reporter") outs.push([value(), "stdout"]);
    else if (flag === "--test-reporter-destination") {
      if (!outs.length) throw new Error("--test-reporter-destination before a --test-reporter");
      outs.at(-1)[1] = value();
    } else if (flag === "--test-name-pattern") patterns.push(new RegExp(value()));
    else if (flag.startsWith("--")) throw new Error(`run.mjs: unknown flag ${argv[i]}`);
    else files.push(argv[i]);
  }
  if (!(jobs >= 1)) throw new Error("run.mjs: --jobs wants a number of files at a time, 1 or more");
  if (!outs.length) outs.push(["spec", "stdout"]);
  const list = ordered(files);
  console.log(`# run.mjs: ${list.length} files, ${jobs} at a time, in this order: ${list.join(" ")}`);
  const stream = run({ files: list.map((f) => path.join(DIR, f)), concurrency: jobs, ...(patterns.length ? { testNamePatterns: patterns } : {}) });
  stream.on("test:fail", () => { process.exitCode = 1; });
  for (const [name, dest] of outs) {
    const r = reporters[name];
    if (!r) throw new Error(`run.mjs: no reporter ${name} (node's are ${Object.keys(reporters).join(", ")})`);
    const tee = new PassThrough({ objectMode: true });
    stream.pipe(tee);
    const out = tee.compose(typeof r === "function" && r.prototype?._transform ? new r() : r);
    out.pipe(dest === "stdout" ? process.stdout : dest === "stderr" ? process.stderr : createWriteStream(dest));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
