/**
 * Item 10: a shell step never has a value pasted into its text. An object key `$(touch PWNED)` read by a
 * shell step (or a `--var` value) reaches it only in its environment (`DIAZO_STEP_<id>_RESULT`,
 * `DIAZO_VAR_<name>`), and a `${{ }}` in a `shell:` body is a validation error pointing at that form.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { mdFixture } from "../e2e/md_helpers.ts";

const KEY = "$(touch PWNED)";

async function exists(file: string): Promise<boolean> {
  return await Deno.stat(file).then(() => true, () => false);
}

Deno.test({
  name:
    "item 10: an object key `$(touch PWNED)` in `${{ }}` of a shell step is refused; through the environment it is only data",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const fx = await mdFixture({ bucket: "shell-injection" });
    try {
      await fx.upload(KEY, "x");
      const pwned = path.join(fx.home.cwd, "PWNED");
      const write = async (name: string, shell: string) =>
        await Deno.writeTextFile(
          path.join(fx.home.cwd, name),
          [
            "name: injection",
            "steps:",
            "  - name: List",
            "    id: objs",
            `    command: object list ${fx.bucket}`,
            "  - name: Echo",
            `    shell: ${shell}`,
            "",
          ].join("\n"),
        );
      await write("pasted.yaml", `echo "\${{ steps.objs.result[0].objectKey }}" > seen.txt`);
      const refused = await fx.run(["pipeline", "run", "pasted.yaml", "--allow-shell"]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(
        refused.stderr,
        /^pasted\.yaml:7:18: a shell step cannot use \$\{\{ \}\}: values reach the shell only through its environment; write "\$DIAZO_STEP_objs_RESULT", the step's result as JSON \(e\.g\. printf %s "\$DIAZO_STEP_objs_RESULT" \| jq -r '\.\[0\]\.objectKey'\)/m,
      );
      assert.match(refused.stderr, /^error: pasted\.yaml is not a valid pipeline: 1 problem$/m);
      assert.equal(await exists(pwned), false, "the key ran as a command");
      assert.equal(await exists(path.join(fx.home.cwd, "seen.txt")), false, "a step ran");

      await write("env.yaml", `printf '%s' "$DIAZO_STEP_objs_RESULT" > seen.json`);
      const ran = await fx.run(["pipeline", "run", "env.yaml", "--allow-shell", "-o", "json"]);
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal(await exists(pwned), false, "the key ran as a command");
      const seen = JSON.parse(await Deno.readTextFile(path.join(fx.home.cwd, "seen.json")));
      assert.deepEqual(seen.map((o: { objectKey: string }) => o.objectKey), [KEY]);
    } finally {
      await fx.close();
    }
  },
});

Deno.test({
  name:
    "item 10: a --var value `$(touch PWNED)` reaches a shell step only as DIAZO_VAR_<name>; `${{ vars }}` there is refused",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const fx = await mdFixture({ bucket: "shell-var" });
    try {
      const pwned = path.join(fx.home.cwd, "PWNED");
      await Deno.writeTextFile(
        path.join(fx.home.cwd, "var.yaml"),
        'name: var\nsteps:\n  - name: Echo\n    shell: echo "${{ vars.name }}" > seen.txt\n',
      );
      const refused = await fx.run(["pipeline", "run", "var.yaml", "--allow-shell", "--var", `name=${KEY}`]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(
        refused.stderr,
        /^var\.yaml:4:18: a shell step cannot use .* write "\$DIAZO_VAR_name" instead of \$\{\{ vars\.name \}\}$/m,
      );
      const validated = await fx.run(["pipeline", "validate", "var.yaml", "--allow-shell"]);
      assert.equal(validated.code, 2, validated.stderr);
      assert.equal(await exists(pwned), false, "the value ran as a command");

      await Deno.writeTextFile(
        path.join(fx.home.cwd, "env.yaml"),
        "name: env\nsteps:\n  - name: Echo\n    shell: printf '%s' \"$DIAZO_VAR_name\" > seen.txt\n",
      );
      const ran = await fx.run(["pipeline", "run", "env.yaml", "--allow-shell", "--var", `name=${KEY}`]);
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal(await Deno.readTextFile(path.join(fx.home.cwd, "seen.txt")), KEY);
      assert.equal(await exists(pwned), false, "the value ran as a command");
    } finally {
      await fx.close();
    }
  },
});
