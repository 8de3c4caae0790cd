/**
 * The object journal at start: a journal holding exactly the objects is kept as it is (no rewrite),
 * anything more — a torn last line, a removal, a replaced object, an object whose files are not
 * whole — makes it be written anew, and appends after either start stay readable.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createClock } from "../../src/sandbox/clock.ts";
import { deleteObject, putObject } from "../../src/sandbox/oss/object_store.ts";
import { createOssStore, type OssStore } from "../../src/sandbox/oss/store.ts";
import {
  appendJournal,
  journalPath,
  replayJournal,
  rewriteJournal,
} from "../../src/sandbox/persist/journal.ts";

function world(dir: string): OssStore {
  const oss = createOssStore(dir, createClock());
  oss.buckets.set("b", {
    bucketKey: "b",
    bucketOwner: "o",
    createdDate: 0,
    policyKey: "transient",
    region: "US",
    permissions: [],
  });
  return oss;
}

async function reopen(dir: string): Promise<{ oss: OssStore; exact: boolean }> {
  const oss = world(dir);
  return { oss, exact: await replayJournal(oss, join(dir, "state")) };
}

const keys = (oss: OssStore) => [...oss.objects.get("b")?.byKey.keys() ?? []].sort();

Deno.test("journal: kept as it is when it holds exactly the objects, rewritten when it holds more", async () => {
  const dir = await Deno.makeTempDir({ prefix: "diazo-journal-" });
  const state = join(dir, "state");
  await Deno.mkdir(state);
  try {
    const oss = world(dir);
    for (const k of ["a", "b", "c"]) await putObject(oss, "b", k, new Uint8Array([1, 2]));
    await appendJournal(oss, state, [["b", "a"], ["b", "b"], ["b", "c"]]);
    const text = await Deno.readTextFile(journalPath(state));

    let again = await reopen(dir);
    assert.equal(again.exact, true);
    assert.deepEqual(keys(again.oss), ["a", "b", "c"]);
    assert.equal(again.oss.objects.get("b")!.byKey.get("a")!.objectKey, "a");

    // A torn last line: the process died writing it.
    await Deno.writeTextFile(journalPath(state), text + '{"b":"b","k":"d","o":{"buck');
    again = await reopen(dir);
    assert.equal(again.exact, false);
    assert.deepEqual(keys(again.oss), ["a", "b", "c"]);
    await rewriteJournal(again.oss, state);
    assert.equal((await reopen(dir)).exact, true);

    // A removal, then a later append after a start that kept the journal: both read back.
    await deleteObject(again.oss, "b", "b");
    await appendJournal(again.oss, state, [["b", "b"]]);
    again = await reopen(dir);
    assert.equal(again.exact, false);
    assert.deepEqual(keys(again.oss), ["a", "c"]);
    await rewriteJournal(again.oss, state);
    again = await reopen(dir);
    assert.equal(again.exact, true);
    await putObject(again.oss, "b", "e", new Uint8Array([3]));
    await appendJournal(again.oss, state, [["b", "e"]]);
    again = await reopen(dir);
    assert.equal(again.exact, true);
    assert.deepEqual(keys(again.oss), ["a", "c", "e"]);

    // An object whose data file is short is dropped, and the journal must be written anew.
    const a = again.oss.objects.get("b")!.byKey.get("a")!;
    await Deno.writeFile(a.files[0], new Uint8Array([1]));
    again = await reopen(dir);
    assert.equal(again.exact, false);
    assert.deepEqual(keys(again.oss), ["c", "e"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
