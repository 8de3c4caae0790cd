/**
 * e2e: the scripts of `diazo completions` loaded into real shells, which then ask the real diazo
 * (a `diazo` shim on PATH that runs src/main.ts) for completions — bash through `complete -F`,
 * fish through `complete -C`, zsh with its completion builtins stubbed, PowerShell through
 * TabExpansion2 where pwsh is installed. A plugin in a temp dir on PATH is completed too.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { cliEnv, diazo, makeHome, spawnDiazo, type TestHome } from "./harness.ts";
import { lines, runShell as run, sections, shellTest, shimEnv, ZSH_ASK } from "./completion_shells.ts";

interface Setup {
  home: TestHome;
  env: Record<string, string>;
}

/** A home with a `diazo` shim and two plugins on PATH, one disabled in plugins.json, and an alias. */
async function setup(): Promise<Setup> {
  const home = await makeHome();
  const plugins = path.join(home.dir, "plugins");
  await Deno.mkdir(plugins);
  for (const name of ["diazo-bucketeer", "diazo-bucketold"]) {
    await Deno.writeTextFile(path.join(plugins, name), "#!/bin/sh\necho plugin\n", { mode: 0o755 });
  }
  await Deno.mkdir(home.configDir, { recursive: true });
  await Deno.writeTextFile(
    path.join(home.configDir, "plugins.json"),
    JSON.stringify({ plugins: { bucketold: { enabled: false } }, aliases: { buckets: "bucket list" } }),
  );
  return { home, env: await shimEnv(home, {}, [plugins]) };
}

const BASH = `
eval "$(diazo completions bash)"
fn=$(complete -p diazo | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p')
ask() { # words of the line after "diazo"; the last one is being typed
  COMP_WORDS=(diazo "$@"); COMP_CWORD=$#
  COMP_LINE="diazo $*"; COMP_POINT=\${#COMP_LINE}
  COMPREPLY=()
  "$fn" diazo "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
  printf '%s\\n' "== $*" "\${COMPREPLY[@]}"
}
ask buc
ask bucket ''
ask object upload --
ask -o ''
`;

function assertAnswers(got: Record<string, string[]>, shell: string) {
  assert.deepEqual(got["buc"], ["bucket", "bucketeer", "buckets"], `${shell}: diazo buc`);
  for (const sub of ["create", "delete", "info", "list"]) {
    assert.ok(
      got["bucket "]?.includes(sub) ?? got["bucket"]?.includes(sub),
      `${shell}: bucket ${sub}: ${JSON.stringify(got)}`,
    );
  }
  const flags = got["object upload --"];
  for (const f of ["--batch", "--part-size", "--resume", "--output", "--profile", "--help"]) {
    assert.ok(flags?.includes(f), `${shell}: object upload ${f}: ${flags}`);
  }
  assert.ok(!flags.includes("--version") && !flags.some((f) => !f.startsWith("--")), `${shell}: ${flags}`);
}

shellTest(
  "bash",
  "bash: the script sourced into bash completes commands, subcommands, flags, values and a PATH plugin",
  async () => {
    const { home, env } = await setup();
    try {
      const r = await run("bash", ["--norc", "--noprofile", "-c", BASH], env, home.cwd);
      assert.equal(r.code, 0, r.stderr);
      const got = sections(r.stdout);
      got["bucket "] = got["bucket "] ?? got["bucket"];
      assertAnswers(got, "bash");
      assert.deepEqual(got["-o "] ?? got["-o"], ["csv", "json", "table", "text", "yaml"]);
      assert.ok(!got["buc"].includes("bucketold"), "a plugin plugins.json disables is not offered");
    } finally {
      await home.cleanup();
    }
  },
);

shellTest(
  "fish",
  "fish: `complete -C` completes commands, subcommands, flags (with descriptions) and a PATH plugin",
  async () => {
    const { home, env } = await setup();
    try {
      const script = [
        "diazo completions fish | source",
        ...["diazo buc", "diazo bucket ", "diazo object upload --"].map((line) =>
          `echo "== ${line.slice(6)}"; complete -C '${line}'`
        ),
      ].join("\n");
      const r = await run("fish", ["--no-config", "-c", script], env, home.cwd);
      assert.equal(r.code, 0, r.stderr);
      assertAnswers(sections(r.stdout), "fish");
      const raw = lines(r.stdout);
      assert.ok(raw.some((l) => /^bucketeer\tplugin$/.test(l)), "fish shows what a candidate is");
      assert.ok(raw.some((l) => /^--resume\t\S/.test(l)), "fish shows each flag's description");
    } finally {
      await home.cleanup();
    }
  },
);

shellTest(
  "zsh",
  "zsh: the script's function hands the words to diazo and the answers to _describe",
  async () => {
    const { home, env } = await setup();
    try {
      const script = `
${ZSH_ASK}
ask buc
ask bucket ''
ask object upload --
ask object upload my-bucket ''
`;
      const r = await run("zsh", ["-f", "-c", script], env, home.cwd);
      assert.equal(r.code, 0, r.stderr);
      const got: Record<string, string[]> = {};
      let key = "";
      for (const l of lines(r.stdout)) {
        if (l.startsWith("== ")) got[key = l.slice(3)] = [];
        else got[key].push(l.replace(/(?<!\\):.*$/, ""));
      }
      got["bucket "] = got["bucket "] ?? got["bucket"];
      assertAnswers(got, "zsh");
      assert.deepEqual(got["object upload my-bucket "] ?? got["object upload my-bucket"], ["__files__"]);
    } finally {
      await home.cleanup();
    }
  },
);

shellTest(
  "pwsh",
  "PowerShell: the registered completer answers TabExpansion2 (where pwsh is installed)",
  async () => {
    const { home, env } = await setup();
    try {
      const script = `
diazo completions powershell | Out-String | Invoke-Expression
foreach ($line in @('diazo buc', 'diazo bucket ', 'diazo object upload --')) {
"== " + $line.Substring(6)
(TabExpansion2 -inputScript $line -cursorColumn $line.Length).CompletionMatches | ForEach-Object { $_.CompletionText }
}`;
      const r = await run("pwsh", ["-NoProfile", "-NonInteractive", "-Command", script], env, home.cwd);
      assert.equal(r.code, 0, r.stderr);
      assertAnswers(sections(r.stdout), "powershell");
    } finally {
      await home.cleanup();
    }
  },
);

Deno.test("diazo completions <shell> prints the script; an unknown shell is a usage error", async () => {
  const home = await makeHome();
  try {
    const bash = await diazo(["completions", "bash"], { env: cliEnv(home) });
    assert.equal(bash.code, 0, bash.stderr);
    assert.match(bash.stdout, /complete -o default -F _diazo_complete diazo/);
    const fish = await diazo(["completions", "fish"], { env: cliEnv(home) });
    assert.match(fish.stdout, /complete -c diazo -f -a '\(__diazo_complete\)'/);
    const bad = await diazo(["completions", "tcsh"], { env: cliEnv(home) });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^error: .*tcsh/);
    const none = await spawnDiazo(["__complete", "tcsh", "--", "x"], { env: cliEnv(home) }); // main.ts's entry
    assert.equal(none.code, 2);
    assert.equal(none.stdout, "");
  } finally {
    await home.cleanup();
  }
});
