/**
 * Issue 27 item 7: the block-style line parser gives the same values and places as the `yaml` library on
 * the files pipelines are written as, and leaves everything else to the library.
 */
import assert from "node:assert/strict";
import * as yaml from "yaml";
import { parseBlockYaml } from "../../src/pipeline/block_yaml.ts";
import { parseJsonTree } from "../../src/pipeline/json_tree.ts";
import { fromYaml, type TreeNode } from "../../src/pipeline/tree.ts";
import { validatePipelineText } from "../../src/pipeline/validate.ts";
import { TREE } from "./pipeline_tree.ts";

function library(text: string): TreeNode | null {
  const doc = yaml.parseDocument(text, { uniqueKeys: true });
  assert.deepEqual(doc.errors, [], text);
  return fromYaml(yaml, doc.contents);
}

/** Scalars are compared whole; a collection by its start (its end is only used clipped to its first line). */
function shape(node: TreeNode | null): unknown {
  if (node === null) return null;
  switch (node.kind) {
    case "scalar":
      return [node.value, node.start, node.end];
    case "map":
      return { start: node.start, pairs: node.items.map((p) => [shape(p.key), shape(p.value)]) };
    case "seq":
      return { start: node.start, items: node.items.map(shape) };
    default:
      return { other: node.start };
  }
}

const INSIDE = [
  "name: x\nsteps:\n  - name: a\n    command: bucket list\n",
  "# a comment\n\nname: x   # trailing\nversion: 1\n$schema: ./schemas/pipeline.schema.json\nsteps:\n- name: a\n  id: s1\n  command: bucket list --region US\n  continue_on_error: true\n- name: 'it''s'\n  shell: \"echo hi\"   \n",
  "name: vars\nvariables:\n  bucket: my-bucket\n  n: 12\n  on: false\n  x: a:b\n  y: c#d\nsteps:\n  -   name: a\n      command: object list ${{ vars.bucket }} --query '${{ steps.a.result }}'\n\n  # between\n  - name: b\n    command: \"bucket list\" # c\n",
  "name: x\nsteps:\n  - plain item\n  - 'quoted item'\n  - name: a\n    command: bucket list",
  "name: ünïcode ✓\nsteps:\n  - name: 名前\n    command: bucket list\n",
];

const OUTSIDE = [
  "name: &a x\nsteps: []\n",
  "name: x\nsteps:\n  - { name: a, command: bucket list }\n",
  '{"name": "x", "steps": [{"name": "a", "command": "bucket list"}]}',
  "name: x\nsteps:\n  - name: a\n    command: |\n      bucket list\n",
  "name: x\nsteps:\n  - name: a\n    command: bucket\n      list\n",
  'name: "a\\tb"\nsteps: []\n',
  "name:\nsteps:\n  - name: a\n",
  "name: x\nname: y\n",
  "name: x\r\nsteps: []\r\n",
  "name: !!str x\n",
  "name: 1.5\n",
  "name: null\n",
  "name: True\n",
  "---\nname: x\n",
  "name: x\n  oops: y\n",
  "steps:\n  - - a\n",
  "name: a: b\n",
  "",
  "# only a comment\n",
  "name: x\nsteps:\n  - name: a\n   command: bucket list\n",
];

Deno.test("item 7: the block parser gives the yaml library's values and places on block-style pipelines", () => {
  for (const text of INSIDE) {
    const fast = parseBlockYaml(text);
    assert.ok(fast !== undefined, `left the subset: ${JSON.stringify(text)}`);
    assert.deepEqual(shape(fast), shape(library(text)), text);
  }
});

Deno.test("item 7: text outside the block subset is left to the yaml library", () => {
  for (const text of OUTSIDE) assert.equal(parseBlockYaml(text), undefined, JSON.stringify(text));
});

Deno.test("item 7: steps checked while the block parser reads are reported once when the library takes over", async () => {
  const steps = "steps:\n  - name: a\n    comand: bucket list\n  - name: b\n    command: bucket list\n";
  const block = await validatePipelineText(`name: x\n${steps}`, { tree: TREE, allowShell: false });
  // A flow value after the steps leaves the subset only at the end of the file.
  const flow = await validatePipelineText(`name: x\n${steps}variables: {a: b}\n`, {
    tree: TREE,
    allowShell: false,
  });
  const lines = (r: typeof block) => r.problems.map((p) => `${p.line}:${p.column} ${p.message}`);
  assert.ok(block.problems.length > 0);
  assert.deepEqual(lines(flow), lines(block));
  assert.equal(new Set(lines(flow)).size, flow.problems.length);
});

/** Plain JSON pipelines: read by json_tree.ts with the library's values and places. */
const JSON_INSIDE = [
  '{"name": "x", "steps": [{"name": "a", "command": "bucket list"}]}',
  '{\n  "name": "x",\n  "version": 1,\n  "variables": {"a": "b", "n": 2.5, "t": true, "z": null, "e": 1e3},\n' +
  '  "steps": [\n    {"name": "a\\tb \\u00e9 \\"q\\"", "id": "s1", "continue_on_error": false, "command": "bucket list"},\n' +
  '    {"name": "b", "command": "object list ${{ vars.a }}"}\n  ]\n}\n',
  '{"name":"x","steps":[],"x":{},"y":[1,-2,[3]]}',
];
const JSON_OUTSIDE = [
  '{"name": "x", "name": "y"}',
  '{"name": "x",}',
  '{"name": "x"} {"b": 1}',
  '{"name": "a\tb"}',
  "{\"name\": 'x'}",
  '{"name": "\\x41"}',
  '{"n": 01}',
  "[1, 2]",
  '{"a": [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]}',
  '{"name": x}',
];

Deno.test("item 7: plain JSON pipelines are read with the yaml library's values and places, anything else is left to it", () => {
  for (const text of JSON_INSIDE) {
    const fast = parseJsonTree(text);
    assert.ok(fast !== undefined, `not read: ${JSON.stringify(text)}`);
    assert.deepEqual(shape(fast), shape(library(text)), text);
  }
  for (const text of JSON_OUTSIDE) assert.equal(parseJsonTree(text), undefined, JSON.stringify(text));
});

Deno.test("item 7: a JSON pipeline's problems are the ones the yaml library's tree gives, at the same places", async () => {
  const json = '{\n  "name": "x",\n  "steps": [\n    {"name": "a", "comand": "bucket list"},\n' +
    '    {"name": "b", "id": "1x", "command": "bucket lst ${{ vars.nope }}"}\n  ]\n}\n';
  const opts = { tree: TREE, allowShell: false };
  const fast = await validatePipelineText(json, opts);
  // A comment after the object is YAML, not JSON: the library reads this one.
  const slow = await validatePipelineText(json + "# end\n", opts);
  assert.equal(parseJsonTree(json + "# end\n"), undefined);
  assert.ok(fast.problems.length >= 3, JSON.stringify(fast.problems));
  assert.deepEqual(fast.problems, slow.problems);
});
