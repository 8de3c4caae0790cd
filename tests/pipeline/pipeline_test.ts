/** Pipelines: validation with positions, structure and command checks, and problem formatting. */
import assert from "node:assert/strict";
import { formatProblem, type Problem } from "../../src/pipeline/pipeline.ts";
import { validatePipelineText } from "../../src/pipeline/validate.ts";
import { check, cmd, TREE } from "./pipeline_tree.ts";
import { describeCommand } from "../../src/front/describe.ts";
import { fullProgram } from "../../src/front/program.ts";

Deno.test("validation: a literal value outside an option's choices is a problem; an expression is left to run time", async () => {
  const tree = cmd("diazo", {
    options: [{ long: "--output", short: "-o", takesValue: true, choices: ["json", "yaml", "table"] }],
    subcommands: [cmd("bucket", { subcommands: [cmd("list")] })],
  });
  const text = [
    /* 1 */ "variables: { fmt: json }",
    /* 2 */ "steps:",
    /* 3 */ "  - command: bucket list -o jsn",
    /* 4 */ "  - command: bucket list --output=yml",
    /* 5 */ "  - command: bucket list -otabel",
    /* 6 */ "  - command: bucket list --output ${{ vars.fmt }}",
    /* 7 */ "  - command: bucket list -o yaml --output=json",
    "",
  ].join("\n");
  const { problems } = await validatePipelineText(text, { tree, allowShell: false });
  const src = text.split("\n");
  expectProblem(
    problems,
    3,
    29,
    /^'jsn' is not a value of -o: json, yaml, table \(did you mean 'json'\?\)$/,
    src[2],
  );
  expectProblem(problems, 4, 26, /^'yml' is not a value of --output: json, yaml, table/, src[3]);
  expectProblem(problems, 5, 26, /^'tabel' is not a value of -o: .* \(did you mean 'table'\?\)$/, src[4]);
  assert.equal(
    problems.filter((p) => / is not a value of /.test(p.message)).length,
    3,
    JSON.stringify(problems),
  );
});

Deno.test("validation: lenient choices are offered, not enforced: the command's parser reads any case", async () => {
  const tree = cmd("diazo", {
    subcommands: [
      cmd("bucket", {
        subcommands: [cmd("list", {
          options: [{ long: "--region", takesValue: true, choices: ["US", "EMEA"], lenientChoices: true }],
        })],
      }),
      cmd("hub", {
        subcommands: [cmd("list", { options: [{ long: "--as", takesValue: true, choices: ["user"] }] })],
      }),
    ],
  });
  const text = [
    "name: regions",
    "steps:",
    "  - { name: a, command: bucket list --region emea }",
    "  - { name: b, command: hub list --as app }",
    "",
  ].join("\n");
  const { problems } = await validatePipelineText(text, { tree, allowShell: false });
  const found = problems.map((p) => [p.line, p.message.split(":")[0]]);
  assert.deepEqual(found, [[4, "'app' is not a value of --as"]]);
});

Deno.test("validation against the real program: -o is held to its formats, a region is read in any case", async () => {
  const tree = describeCommand(await fullProgram());
  const text = [
    "name: formats",
    "steps:",
    "  - { name: a, command: bucket list --region emea -o json }",
    "  - { name: b, command: bucket list -o jsn }",
    "",
  ].join("\n");
  const { problems } = await validatePipelineText(text, { tree, allowShell: false });
  assert.deepEqual(problems.map((p) => [p.line, p.message]), [
    [4, "'jsn' is not a value of -o: json, yaml, table, csv, text (did you mean 'json'?)"],
  ]);
});

Deno.test("validation: `--output` takes only a format; a destination is the command's own --out", async () => {
  const tree = cmd("diazo", {
    options: [{ long: "--output", short: "-o", takesValue: true, choices: ["json", "yaml", "table"] }],
    subcommands: [cmd("run", { options: [{ long: "--out", takesValue: true }] })],
  });
  const text = [
    "name: outputs",
    "steps:",
    "  - { name: a, command: run --out result=out.txt -o json }",
    "  - { name: b, command: run --output result=out.txt }",
    "",
  ].join("\n");
  const { problems } = await validatePipelineText(text, { tree, allowShell: false });
  assert.deepEqual(problems.map((p) => [p.line, p.message.split(":")[0]]), [
    [4, "'result=out.txt' is not a value of --output"],
  ]);
});

Deno.test("validation: an alias step is checked as its expansion; loops, missing arguments and plugins are problems", async () => {
  const extensions = {
    aliases: {
      up: "object upload $1 --batch",
      mk: "bucket create --key",
      bad: "object uplod",
      a: "b",
      b: "a",
      two: "object upload $1 $2",
      plug: "hello --loud",
      bucket: "object upload",
    },
    isPlugin: (name: string) => name === "hello",
  };
  const text = [
    /* 1 */ "name: aliases",
    /* 2 */ "variables: { bucket: b1 }",
    /* 3 */ "steps:",
    /* 4 */ "  - name: ok",
    /* 5 */ "    command: up ${{ vars.bucket }} dir",
    /* 6 */ "  - name: ok2",
    /* 7 */ "    command: mk ${{ vars.bucket }}",
    /* 8 */ "  - name: typo",
    /* 9 */ "    command: bad b1 f",
    /* 10 */ "  - name: loop",
    /* 11 */ "    command: a",
    /* 12 */ "  - name: few",
    /* 13 */ "    command: two b1",
    /* 14 */ "  - name: plugin",
    /* 15 */ "    command: hello world",
    /* 16 */ "  - name: via",
    /* 17 */ "    command: plug",
    /* 18 */ "  - name: builtin wins",
    /* 19 */ "    command: bucket list",
    /* 20 */ "  - name: flag",
    /* 21 */ "    command: up b1 dir --prefx x",
    "",
  ].join("\n");
  const { problems } = await validatePipelineText(text, { tree: TREE, allowShell: false, extensions });
  const src = text.split("\n");
  expectProblem(problems, 9, 14, /^unknown command 'object uplod'/, src[8]);
  expectProblem(problems, 11, 14, /^alias loop: a → b → a$/, src[10]);
  expectProblem(problems, 13, 14, /^alias 'two' needs 2 arguments \(\$1\.\.\$2\), got 1$/, src[12]);
  expectProblem(problems, 15, 14, /^'hello' is a plugin: .*shell: diazo hello/, src[14]);
  expectProblem(problems, 17, 14, /^'hello' \(through alias plug\) is a plugin: /, src[16]);
  expectProblem(problems, 21, 24, /^unknown option '--prefx'/, src[20]);
  assert.equal(problems.length, 6, JSON.stringify(problems, null, 2));

  const none = await validatePipelineText(text, { tree: TREE, allowShell: false });
  assert.ok(
    none.problems.some((p) => p.line === 5 && /^unknown command 'up'/.test(p.message)),
    "without extensions an alias is an unknown command",
  );
});

/** Asserts exactly one problem whose message matches, at line:column, on the given source line. */
function expectProblem(problems: Problem[], line: number, column: number, message: RegExp, source: string) {
  const found = problems.filter((p) => message.test(p.message));
  assert.equal(found.length, 1, `one problem matching ${message} in:\n${JSON.stringify(problems, null, 2)}`);
  assert.deepEqual(
    { line: found[0].line, column: found[0].column, source: found[0].source },
    { line, column, source },
    found[0].message,
  );
}

Deno.test("validation: every kind of mistake in one pass, each with its line, column and line text", async () => {
  const text = [
    /* 1 */ "name: demo",
    /* 2 */ "varables: {}",
    /* 3 */ "variables:",
    /* 4 */ "  bucket: my-bucket",
    /* 5 */ "steps:",
    /* 6 */ "  - name: Upload",
    /* 7 */ "    id: up",
    /* 8 */ "    command: object upload ${{ vars.bukcet }} model.obj --prefx a/",
    /* 9 */ "  - name: Translate",
    /* 10 */ "    id: up",
    /* 11 */ "    command: translate start ${{ steps.tr.result.urn }} -f svf2",
    /* 12 */ '    continue_on_error: "yes"',
    /* 13 */ "  - name: Status",
    /* 14 */ "    id: tr",
    /* 15 */ "    comand: x",
    /* 16 */ "    command: objet list",
    /* 17 */ "  - name: No command",
    /* 18 */ "  - name: Both",
    /* 19 */ "    command: bucket list",
    /* 20 */ "    shell: echo hi",
    /* 21 */ "  - name: Shell",
    /* 22 */ "    shell: echo ${{ vars.bucket }}",
    /* 23 */ "  - name: Self",
    /* 24 */ "    id: me",
    /* 25 */ "    command: object upload ${{ steps.me.result.x }} ${{ steps.ghost.result }} ${{ nope.x }}",
    /* 26 */ "  - name: Unclosed",
    /* 27 */ '    command: "translate status ${{ vars.bucket"',
    /* 28 */ "  - name: Missing",
    /* 29 */ "    command: bucket create",
    "",
  ].join("\n");
  const { pipeline, problems } = await check(text);
  assert.equal(pipeline, undefined, "an invalid file gives no pipeline");
  const src = text.split("\n");
  expectProblem(
    problems,
    2,
    1,
    /^unknown key 'varables' at the top level \(did you mean 'variables'\?\)$/,
    src[1],
  );
  expectProblem(problems, 8, 28, /^undefined variable 'bukcet' \(did you mean 'bucket'\?\)$/, src[7]);
  expectProblem(problems, 8, 57, /^unknown option '--prefx'/, src[7]);
  expectProblem(problems, 10, 9, /^duplicate step id 'up' \(also step 1\)$/, src[9]);
  expectProblem(problems, 11, 30, /^step 'tr' runs later \(step 3\)/, src[10]);
  expectProblem(problems, 12, 24, /^continue_on_error must be true or false$/, src[11]);
  expectProblem(problems, 15, 5, /^unknown key 'comand' in step 3 \(did you mean 'command'\?\)$/, src[14]);
  expectProblem(problems, 16, 14, /^unknown command 'objet' \(did you mean 'object'\?\)$/, src[15]);
  expectProblem(problems, 17, 5, /^step 4 has no `command`$/, src[16]);
  expectProblem(problems, 20, 5, /^step 5 has both `command` and `shell`/, src[19]);
  expectProblem(problems, 22, 5, /^a `shell` step runs only with `pipeline run --allow-shell`$/, src[21]);
  expectProblem(problems, 25, 28, /^step 'me' cannot use its own result$/, src[24]);
  expectProblem(problems, 25, 53, /^no step has id 'ghost'$/, src[24]);
  expectProblem(problems, 25, 79, /^unknown expression 'nope\.x'/, src[24]);
  expectProblem(problems, 27, 32, /^unclosed \$\{\{/, src[26]);
  expectProblem(problems, 29, 27, /^missing required option --key of 'bucket create'$/, src[28]);
  // Sorted by position, so that the report reads top to bottom.
  const order = problems.map((p) => p.line * 1000 + p.column);
  assert.deepEqual(order, [...order].sort((a, b) => a - b));
});

Deno.test("validation: structure errors (steps not a list, missing name, empty file, wrong types)", async () => {
  const notList = await check("name: x\nsteps:\n  name: a\n");
  expectProblem(notList.problems, 3, 3, /^`steps` must be a list of steps$/, "  name: a");
  const noName = await check("steps:\n  - command: bucket list\n");
  expectProblem(noName.problems, 1, 1, /^missing `name`/, "steps:");
  expectProblem(noName.problems, 2, 5, /^step 1 has no `name`$/, "  - command: bucket list");
  const empty = await check("");
  assert.match(empty.problems[0].message, /the file is empty/);
  const scalar = await check("just text\n");
  expectProblem(scalar.problems, 1, 1, /must be a mapping with `name` and `steps`/, "just text");
  const types = await check("name: x\nvariables: [a]\nsteps:\n  - name: a\n    command: 42\n");
  expectProblem(types.problems, 2, 12, /^`variables` must be a mapping/, "variables: [a]");
  expectProblem(types.problems, 5, 14, /^command of step 1 must be a string$/, "    command: 42");
});

Deno.test("validation: commands against the tree — arguments, values, aliases, no nesting, no leading diazo", async () => {
  const text = [
    "name: cmds",
    "steps:",
    "  - { name: a, command: 'bucket ls -o json --profile work' }",
    "  - { name: b, command: object upload }",
    "  - { name: c, command: bucket list extra }",
    "  - { name: d, command: pipeline run x.yaml }",
    "  - { name: e, command: diazo bucket list }",
    "  - { name: f, command: bucket list --profile }",
    "  - { name: g, command: translate some-urn --anything goes }",
    "  - { name: h, command: bucket }",
    "",
  ].join("\n");
  const { problems } = await check(text);
  const src = text.split("\n");
  expectProblem(problems, 4, 38, /^missing argument <bucketKey> of 'object upload'$/, src[3]);
  expectProblem(problems, 4, 38, /^missing argument <files\.\.\.> of 'object upload'$/, src[3]);
  expectProblem(problems, 5, 37, /^too many arguments for 'bucket list' \(expected: none\)$/, src[4]);
  expectProblem(problems, 6, 25, /^a step cannot run `pipeline`/, src[5]);
  expectProblem(problems, 7, 25, /without the leading `diazo`/, src[6]);
  expectProblem(problems, 8, 37, /^option '--profile' needs a value$/, src[7]);
  expectProblem(problems, 10, 31, /^'bucket' needs a subcommand: create, list$/, src[9]);
  assert.equal(problems.length, 7, JSON.stringify(problems, null, 2)); // steps a and g are fine
});

Deno.test("validation: --var names count as defined; JSON files report positions too", async () => {
  const yaml = "name: v\nsteps:\n  - name: a\n    command: bucket create --key ${{ vars.bucket }}\n";
  assert.equal((await check(yaml)).problems.length, 1);
  const ok = await check(yaml, { extra: ["bucket"] });
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.pipeline?.steps[0].command?.path.join(" "), "bucket create");

  const json = [
    "{",
    '  "name": "j",',
    '  "steps": [',
    '    { "name": "a", "command": "bucket list --limt 3", "continue_on_eror": true }',
    "  ]",
    "}",
  ].join("\n");
  const { problems } = await check(json);
  expectProblem(problems, 4, 44, /^unknown option '--limt'$/, json.split("\n")[3]);
  expectProblem(problems, 4, 55, /^unknown key 'continue_on_eror' in step 1/, json.split("\n")[3]);
});

Deno.test("validation: a file that is not YAML reports the parser's line and column", async () => {
  const { problems, pipeline } = await check("name: [unclosed\nsteps: 1\n");
  assert.equal(pipeline, undefined);
  assert.equal(problems[0].line, 2);
  assert.equal(problems[0].column, 1);
  assert.match(problems[0].message, /Flow sequence/);
  assert.doesNotMatch(problems[0].message, /at line/, "the position is ours, not repeated in the text");
  const dup = await check("name: a\nname: b\nsteps: []\n");
  expectProblem(dup.problems, 2, 1, /^duplicate key 'name' at the top level/, "name: b");
  const dupVar = await check("name: a\nvariables: { x: 1, x: 2 }\nsteps: []\n");
  expectProblem(dupVar.problems, 2, 20, /^duplicate variable 'x'/, "variables: { x: 1, x: 2 }");
});

Deno.test("formatProblem: file:line:col, the line, and a caret under the span", () => {
  const text = formatProblem("p.yaml", {
    line: 8,
    column: 5,
    length: 6,
    message: "unknown key 'comand'",
    source: "    comand: x",
    sourceColumn: 5,
  });
  assert.equal(text, "p.yaml:8:5: unknown key 'comand'\n 8 |     comand: x\n   |     ^^^^^^\n");
});

Deno.test("a problem on a long line quotes at most 200 characters around its column, the caret under the spot", async () => {
  const steps = Array.from({ length: 400 }, (_, i) => `{ id: s${i}, command: bucket list }`).join(", ");
  const line = `{ name: x, steps: [${steps}, { name: last, comand: bucket list }] }`;
  const { problems } = await check(line + "\n");
  const typo = problems.find((p) => /unknown key 'comand'/.test(p.message))!;
  assert.equal(typo.column, line.indexOf("comand") + 1);
  assert.ok(typo.source.length <= 200, `${typo.source.length} characters`);
  assert.equal(typo.source.slice(typo.sourceColumn - 1, typo.sourceColumn + 5), "comand");
  const shown = formatProblem("p.yaml", typo).split("\n");
  assert.equal(shown[2].indexOf("^^^^^^") - shown[1].indexOf("|"), typo.sourceColumn + 1);
  assert.ok(shown.every((l) => l.length < 260), shown.join("\n"));
  // The first steps' problems sit at the start of the line: their excerpt is cut only at its end.
  assert.ok(problems[0].source.startsWith("{ name: x") && problems[0].source.endsWith("…"));
});

Deno.test("a shell step's `${{ }}` is a problem naming the environment variable that carries the value", async () => {
  const text = [
    "name: sh",
    "variables: { bucket: b, my-key: k }",
    "steps:",
    "  - { name: a, id: objs, command: bucket list }",
    "  - name: b",
    '    shell: echo "${{ steps.objs.result[0].objectKey }}" ${{ vars.bucket }} ${{ vars.my-key }} $${{ x',
    "  - { name: c, shell: 'echo ${{ steps.objs.exit_code }} $DIAZO_VAR_bucket' }",
    "",
  ].join("\n");
  const { problems } = await check(text, { allowShell: true });
  const [l6, l7] = [text.split("\n")[5], text.split("\n")[6]];
  const col = (line: string, what: string) => line.indexOf(what) + 1;
  assert.deepEqual(problems.map((p) => [p.line, p.column]), [
    [6, col(l6, "${{ steps")],
    [6, col(l6, "${{ vars.bucket")],
    [6, col(l6, "${{ vars.my-key")],
    [7, col(l7, "${{")],
  ]);
  assert.match(
    problems[0].message,
    /^a shell step cannot use \$\{\{ \}\}: values reach the shell only through its environment/,
  );
  assert.match(
    problems[0].message,
    /"\$DIAZO_STEP_objs_RESULT", the step's result as JSON \(e\.g\. printf %s "\$DIAZO_STEP_objs_RESULT" \| jq -r '\.\[0\]\.objectKey'\)/,
  );
  assert.match(problems[1].message, /write "\$DIAZO_VAR_bucket" instead of \$\{\{ vars\.bucket \}\}$/);
  assert.match(problems[2].message, /write "\$\(printenv 'DIAZO_VAR_my-key'\)"/);
  assert.match(problems[3].message, /write "\$DIAZO_STEP_objs_EXIT_CODE"/);
  const ok = await check(
    "name: sh\nsteps:\n  - { name: a, shell: 'echo $${{ not.an.expression }} \"$DIAZO_VAR_x\"' }\n",
    {
      allowShell: true,
    },
  );
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.pipeline?.steps[0].shell?.script, 'echo ${{ not.an.expression }} "$DIAZO_VAR_x"');
});
