/**
 * The construction-cloud record machinery's pure parts (ops/records.ts): a body assembled from
 * defaults, a body file and fields (flags or tool arguments), what an update changes, `me` among the
 * assignees; and the tool server's snake-case arguments under the platform's names.
 */
import assert from "node:assert/strict";
import { changesFrom, recordBody, withMe } from "../../src/families/acc/records.ts";
import { camelKeys } from "../../src/mcp/tool.ts";

const SHAPE = { title: "string", status: "string", dueDate: "date" } as const;
const stdin = (text: string) => ({ path: "-", cwd: "/", readStdin: () => Promise.resolve(text) });

Deno.test("recordBody: defaults under the file under the fields; fields not given leave the file's", async () => {
  const body = await recordBody(SHAPE, {
    fields: { title: "From a flag", status: undefined },
    fromFile: stdin("title: From the file\nstatus: open\n"),
    defaults: { status: "draft", dueDate: "2026-12-01" },
  });
  assert.deepEqual(body, { status: "open", dueDate: "2026-12-01", title: "From a flag" });
  assert.deepEqual(await recordBody(SHAPE, { fields: { title: undefined } }), {});
});

Deno.test("recordBody: a file field outside the kind's shape is a usage error before any request", async () => {
  await assert.rejects(
    recordBody(SHAPE, { fields: {}, fromFile: stdin("priority: high\n") }),
    /<stdin>:1:1: unknown field 'priority'/,
  );
});

Deno.test("changesFrom: only what differs, a missing value being null", () => {
  const have = { title: "A", status: "open", dueDate: null, tags: ["x"] };
  assert.deepEqual(changesFrom(have, { title: "A", status: "closed", dueDate: undefined, tags: ["x"] }), {
    status: "closed",
  });
  assert.deepEqual(changesFrom(have, { assignee: null, tags: ["y"] }), { tags: ["y"] });
});

Deno.test("withMe: `me` (any case) becomes the caller's id, read only when it is there", async () => {
  let asked = 0;
  const me = () => {
    asked++;
    return Promise.resolve("U123");
  };
  assert.deepEqual(await withMe({ assignedTo: ["A", "Me"], search: "x" }, me), {
    assignedTo: ["A", "U123"],
    search: "x",
  });
  assert.deepEqual(await withMe({ assignedTo: ["A"] }, me), { assignedTo: ["A"] });
  assert.deepEqual(await withMe({}, me), {});
  assert.equal(asked, 1);
});

Deno.test("camelKeys: the given tool arguments under the platform's names, the others left out", () => {
  assert.deepEqual(
    camelKeys({ project_id: "p", issue_subtype_id: "t", assigned_to: null, due_date: undefined }, [
      "issue_subtype_id",
      "assigned_to",
      "due_date",
    ]),
    { issueSubtypeId: "t", assignedTo: null },
  );
});
