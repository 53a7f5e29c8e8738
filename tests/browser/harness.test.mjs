// The harness's own logic that needs no browser: sharing()'s rules for the
// page the tests of one file share (harness.mjs).
//
//   cd tests/browser && node --test harness.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { sharing } from "./harness.mjs";

// fakePages counts the pages open() made; each can be closed.
function fakePages() {
  const made = [];
  const open = async () => {
    const p = { n: made.length + 1, closed: false, close: async () => { p.closed = true; }, isClosed: () => p.closed };
    made.push(p);
    return p;
  };
  return { made, open };
}

test("sharing: the tests share one page; a failure closes it and the next test opens another", async () => {
  const { made, open } = fakePages();
  const { shared, onShared } = sharing(open);
  let first, second, third;
  await onShared(async () => { first = await shared(); })();
  await onShared(async () => { second = await shared(); })();
  assert.equal(first, second, "one page for two passing tests");
  await assert.rejects(onShared(async () => { await shared(); throw new Error("a step failed"); })(), /a step failed/);
  assert.equal(first.closed, true, "the failed test's page is closed");
  await onShared(async () => { third = await shared(); })();
  assert.equal(third.n, 2);
  assert.equal(made.length, 2);
});

test("sharing: a test that ran out of its time cannot close the page of the test after it", async () => {
  const { made, open } = fakePages();
  const { shared, onShared } = sharing(open);
  let release;
  let late;
  // The first test's function never returns by itself (node's test timeout
  // fired; its Promise goes on): it holds its page and waits.
  const stuck = onShared(async () => {
    late = await shared();
    await new Promise((_, reject) => { release = reject; });
  })();
  await new Promise((r) => setImmediate(r));
  assert.equal(made.length, 1);
  let mine;
  const next = onShared(async () => {
    mine = await shared();
    // The stuck test's steps fail now, on its closed page.
    release(new Error("Target page, context or browser has been closed"));
    await stuck.catch(() => {});
    assert.equal(mine.closed, false, "the late failure left this test's page open");
  })();
  await next;
  assert.equal(late.closed, true, "the stuck test's page was closed when the next test started");
  assert.notEqual(mine, late);
  await onShared(async () => { assert.equal(await shared(), mine, "the next test shares it again"); })();
});
