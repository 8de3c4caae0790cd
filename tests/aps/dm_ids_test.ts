import assert from "node:assert/strict";
import {
  accId,
  dmFolderId,
  dmHubId,
  dmItemId,
  dmProjectId,
  dmVersionId,
  isPersonalId,
} from "../../src/aps/dm_ids.ts";
import { DiazoError, ExitCode } from "../../src/core/errors.ts";

const GUID = "c2960674-2d1e-4cc8-a5f0-4b9026fd3f5d";

/** Runs `fn`, expecting a usage error; returns its message and hint. */
function usage(fn: () => unknown): { message: string; hint: string } {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof DiazoError, String(e));
    assert.equal(e.exitCode, ExitCode.usage);
    return { message: e.message, hint: e.hint };
  }
  assert.fail("expected a usage error");
}

Deno.test("dmProjectId: a bare GUID gets b., b. and a. ids pass unchanged, spaces are trimmed", () => {
  assert.equal(dmProjectId(GUID), `b.${GUID}`);
  assert.equal(dmProjectId(GUID.toUpperCase()), `b.${GUID.toUpperCase()}`);
  assert.equal(dmProjectId(`b.${GUID}`), `b.${GUID}`);
  assert.equal(dmProjectId(`  b.${GUID}\n`), `b.${GUID}`);
  // Idempotent: normalising twice changes nothing.
  assert.equal(dmProjectId(dmProjectId(GUID)), `b.${GUID}`);
  assert.equal(dmProjectId("a.cHJvamVjdDpzYW5kYm94"), "a.cHJvamVjdDpzYW5kYm94");
  assert.equal(
    dmProjectId("a.ZXhhbXBsZTp3aXAxZnFhYXV0b2Rlc2sxNjI="),
    "a.ZXhhbXBsZTp3aXAxZnFhYXV0b2Rlc2sxNjI=",
  );
});

Deno.test("dmProjectId rejects malformed ids with a hint showing what ids look like", () => {
  for (
    const bad of [
      "",
      "b.",
      "b.not-a-guid",
      `b.b.${GUID}`,
      GUID.slice(0, -1),
      `${GUID}0`,
      `c.${GUID}`,
      "a.",
      "a.has space",
      "urn:adsk.wipprod:fs.folder:co.x",
    ]
  ) {
    const e = usage(() => dmProjectId(bad));
    assert.match(e.message, /^invalid project id '/, bad);
    assert.match(e.hint, /b\.[0-9a-f-]{36}/, "the hint shows a b.<guid> example");
    assert.match(e.hint, /diazo project list <hub>/);
  }
});

Deno.test("dmHubId: an account GUID becomes a hub id; malformed ids name the hub list", () => {
  assert.equal(dmHubId(GUID), `b.${GUID}`);
  assert.equal(dmHubId(`b.${GUID}`), `b.${GUID}`);
  assert.equal(dmHubId("a.YnVzaW5lc3M6c2FuZGJveC51c2Vy"), "a.YnVzaW5lc3M6c2FuZGJveC51c2Vy");
  const e = usage(() => dmHubId("my-hub"));
  assert.equal(e.message, "invalid hub id 'my-hub'");
  assert.match(e.hint, /diazo hub list/);
  assert.match(e.hint, /a\./, "the hint mentions personal hubs");
});

Deno.test("accId strips b. for the construction-cloud APIs and rejects non-GUIDs", () => {
  assert.equal(accId(`b.${GUID}`), GUID);
  assert.equal(accId(GUID), GUID);
  assert.equal(accId(accId(`b.${GUID}`)), GUID);
  usage(() => accId("a.cHJvamVjdA"));
  usage(() => accId("b.123"));
  // The address of a project in the ACC web app names it too.
  assert.equal(accId(`https://acc.autodesk.com/docs/files/projects/${GUID}?folderUrn=urn%3Aadsk`), GUID);
  assert.equal(accId(`https://acc.autodesk.com/build/issues/projects/b.${GUID}/issues`), GUID);
  usage(() => accId(`https://example.com/projects/${GUID}`));
});

Deno.test("folder, item and version URNs are checked by kind", () => {
  const folder = "urn:adsk.wipprod:fs.folder:co.-3PR0vqmBU0dyCdWtG4eDw";
  assert.equal(dmFolderId(folder), folder);
  assert.equal(
    dmFolderId("urn:adsk.wipemea:dm.folder:hC6k4hndRWaeIVhIjvHu8w"),
    "urn:adsk.wipemea:dm.folder:hC6k4hndRWaeIVhIjvHu8w",
  );
  const item = "urn:adsk.wipprod:dm.lineage:AeYgDtcTSuqYoyMweWFhhQ";
  assert.equal(dmItemId(` ${item} `), item);
  const version = "urn:adsk.wipprod:fs.file:vf.AeYgDtcTSuqYoyMweWFhhQ?version=12";
  assert.equal(dmVersionId(version), version);
  // The URL-encoded form, as it appears in links, is accepted and decoded.
  assert.equal(dmVersionId("urn:adsk.wipprod:fs.file:vf.AeYgDtcTSuqYoyMweWFhhQ%3Fversion%3D12"), version);

  // A URN of another kind is not accepted in its place.
  assert.match(usage(() => dmFolderId(item)).message, /^invalid folder id/);
  assert.match(usage(() => dmItemId(folder)).hint, /^An item id looks like urn:adsk\.wipprod:dm\.lineage:/);
  assert.match(usage(() => dmVersionId(item)).message, /^invalid version id/);
  assert.match(usage(() => dmVersionId(version.replace("=12", "=0"))).message, /^invalid version id/);
  assert.match(usage(() => dmFolderId("urn:adsk.objects:os.object:b/k")).hint, /fs\.folder:co\./);
  // Long garbage is cut in the message.
  assert.ok(usage(() => dmItemId("x".repeat(500))).message.length < 120);
});

Deno.test("isPersonalId tells a. ids from b. ids", () => {
  assert.equal(isPersonalId("a.YnVzaW5lc3M"), true);
  assert.equal(isPersonalId(`b.${GUID}`), false);
});
