/**
 * The peer CLI's variable syntax in pipeline files: `${NAME}` and `$NAME` are synonyms of
 * `${{ vars.NAME }}` in command steps; an undefined `${NAME}` is reported at its file:line:col.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { parseTemplate, type TemplatePart } from "../../src/pipeline/interpolate.ts";
import { diazo, json, requestLog } from "../e2e/harness.ts";
import { mdFixture } from "../e2e/md_helpers.ts";

const show = (parts: TemplatePart[]) =>
  parts.map((p) => (p.kind === "text" ? p.value : `<${p.ref.kind === "var" ? p.ref.name : p.ref.id}>`)).join(
    "",
  );

Deno.test("peer syntax: ${NAME} always, $NAME only for a defined variable, $$ escapes, ${{ }} untouched", () => {
  const peer = { vars: ["bucket", "file"] };
  const { parts, problems } = parseTemplate(
    "object upload ${bucket} $file --query '$.x' $price ${{ vars.file }}",
    peer,
  );
  assert.deepEqual(problems, []);
  assert.equal(show(parts), "object upload <bucket> <file> --query '$.x' $price <file>");
  assert.equal(show(parseTemplate("a ${missing} b", peer).parts), "a <missing> b");
  assert.equal(show(parseTemplate("$${bucket} $$file $${{ x", peer).parts), "${bucket} $file ${{ x");
  assert.equal(show(parseTemplate("${not a name} ${}", peer).parts), "${not a name} ${}");
  // Offsets point at the reference in the text (for file:line:col).
  const expr = parseTemplate("x ${bucket}", peer).parts.find((p) => p.kind === "expr")!;
  assert.deepEqual([expr.start, expr.end], [2, 11]);
  // Without peer syntax (shell steps) the text is left to the shell.
  assert.equal(show(parseTemplate("echo ${bucket} $file", undefined).parts), "echo ${bucket} $file");
});

const PEER_PIPELINE = `name: peer-style
variables:
  BUCKET: e2e-md
  FILE: cube.obj
steps:
  - name: Upload
    command: object upload \${BUCKET} $FILE
  - name: Info
    command: object info $BUCKET \${FILE}
`;

Deno.test("pipeline run: a file written for the peer CLI (${NAME}, $NAME) runs; validate reports an undefined ${NAME} at line:col", async () => {
  const fx = await mdFixture();
  try {
    await Deno.writeTextFile(path.join(fx.home.cwd, "cube.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    await Deno.writeTextFile(path.join(fx.home.cwd, "peer.yaml"), PEER_PIPELINE);
    const r = await diazo(["pipeline", "run", "peer.yaml", "-o", "json"], { env: fx.env, cwd: fx.home.cwd });
    assert.equal(r.code, 0, r.stderr);
    const report = json<{ steps: { argv: string[]; status: string }[] }>(r);
    assert.deepEqual(report.steps.map((s) => [s.status, s.argv]), [
      ["ok", ["object", "upload", "e2e-md", "cube.obj"]],
      ["ok", ["object", "info", "e2e-md", "cube.obj"]],
    ]);
    assert.ok((await requestLog(fx.sb.url)).some((e) => e.path.endsWith("/objects/cube.obj/signeds3upload")));

    const typo = PEER_PIPELINE.replace("object info $BUCKET", "object info ${BUCKT}");
    await Deno.writeTextFile(path.join(fx.home.cwd, "typo.yaml"), typo);
    const v = await diazo(["pipeline", "validate", "typo.yaml"], { env: fx.env, cwd: fx.home.cwd });
    assert.equal(v.code, 2, v.stderr);
    assert.match(v.stderr, /typo\.yaml:9:26: undefined variable 'BUCKT' \(did you mean 'BUCKET'\?\)/);
  } finally {
    await fx.close();
  }
});
