/**
 * e2e: completion of values (core/completion_sources.ts) through the scripts of `diazo completions`
 * loaded into real shells, which ask the real diazo (a shim on PATH running src/main.ts): `--region`,
 * `--profile` (from config.json), `help <topic>` and bucket keys from a sandbox on port 0; project ids
 * for `--project`; the cache of remote values, their time limit and a line without credentials.
 */
import assert from "node:assert/strict";
import path from "node:path";
import {
  addFault,
  diazo,
  makeHome,
  requestLog,
  SANDBOX_SECRET,
  sandboxEnv,
  spawnDiazo,
  startTestSandbox,
  type TestHome,
} from "./harness.ts";
import { lines, runShell, sections, shellTest, shimEnv, ZSH_ASK } from "./completion_shells.ts";
import type { Sandbox } from "../../src/sandbox/server.ts";

/** A sandbox with two buckets, and a home whose config.json has the profiles `work` (active) and `ci`. */
interface World {
  sb: Sandbox;
  home: TestHome;
  env: Record<string, string>;
  close(): Promise<void>;
}

async function world(): Promise<World> {
  const sb = await startTestSandbox();
  const home = await makeHome();
  try {
    await Deno.mkdir(home.configDir, { recursive: true });
    await Deno.writeTextFile(
      path.join(home.configDir, "config.json"),
      JSON.stringify({ active_profile: "work", profiles: { work: {}, ci: {} }, settings: {} }),
    );
    const env = await shimEnv(home, sandboxEnv(home, sb.url));
    for (const key of ["cv-alpha", "cv-beta"]) {
      const r = await diazo(["bucket", "create", "--key", key], { env, cwd: home.cwd });
      assert.equal(r.code, 0, r.stderr);
    }
    return {
      sb,
      home,
      env,
      close: async () => {
        await home.cleanup();
        await sb.close();
      },
    };
  } catch (e) {
    await home.cleanup();
    await sb.close();
    throw e;
  }
}

/** The questions both shells are asked: the words after `diazo`, the last one being typed. */
const QUESTIONS: readonly string[][] = [
  ["bucket", "list", "--region", "A"],
  ["webhook", "list", "--region", "A"],
  ["translate", "manifest", "x", "--region", "e"],
  ["--profile", ""],
  ["--profile=w"],
  ["config", "profile", "use", ""],
  ["help", "e"],
  ["help", ""],
  ["bucket", "info", ""],
  ["object", "upload", "cv-a"],
  ["bucket", "info", "zz"],
];

function assertValues(got: Record<string, string[]>, shell: string) {
  const at = (words: readonly string[]) => got[words.join(" ").trimEnd()] ?? [];
  assert.deepEqual(at(QUESTIONS[0]), ["APAC", "AUS"], `${shell}: storage regions`);
  assert.deepEqual(at(QUESTIONS[1]), ["AUS"], `${shell}: data centres (no APAC)`);
  assert.deepEqual(at(QUESTIONS[2]), ["EMEA"], `${shell}: a region in any case`);
  assert.deepEqual(at(QUESTIONS[3]), ["ci", "work"], `${shell}: profiles of config.json`);
  assert.deepEqual(at(QUESTIONS[4]), ["--profile=work"], `${shell}: --profile=`);
  assert.deepEqual(at(QUESTIONS[5]), ["ci", "work"], `${shell}: a profile argument`);
  assert.deepEqual(at(QUESTIONS[6]), ["environment", "exit-codes"], `${shell}: help topics`);
  for (const word of ["bucket", "config", "environment", "formatting"]) {
    assert.ok(at(QUESTIONS[7]).includes(word), `${shell}: help ${word}: ${at(QUESTIONS[7])}`);
  }
  assert.deepEqual(at(QUESTIONS[8]), ["cv-alpha", "cv-beta"], `${shell}: bucket keys from the sandbox`);
  assert.deepEqual(at(QUESTIONS[9]), ["cv-alpha"], `${shell}: a bucket argument of another family`);
  assert.deepEqual(at(QUESTIONS[10]), [], `${shell}: no bucket matches, and no file names either`);
}

const shellWords = (words: readonly string[]) => words.map((w) => `'${w}'`).join(" ");

shellTest(
  "bash",
  "bash: regions, profiles, help topics and bucket keys complete through `complete -F`",
  async () => {
    const w = await world();
    try {
      await Deno.writeTextFile(path.join(w.home.cwd, "cv-file.txt"), "a file the bucket slot must not offer");
      const script = `
eval "$(diazo completions bash)"
fn=$(complete -p diazo | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p')
compopt() { [[ "$1 $2" == "+o default" ]] && echo "<no files>"; } # the real one works only at TAB time
ask() {
COMP_WORDS=(diazo "$@"); COMP_CWORD=$#
COMP_LINE="diazo $*"; COMP_POINT=\${#COMP_LINE}
COMPREPLY=()
echo "== $*"
"$fn" diazo "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
[[ \${#COMPREPLY[@]} -gt 0 ]] && printf '%s\\n' "\${COMPREPLY[@]}"
true
}
${QUESTIONS.map((q) => `ask ${shellWords(q)}`).join("\n")}
`;
      const r = await runShell("bash", ["--norc", "--noprofile", "-c", script], w.env, w.home.cwd);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, "", "nothing on the terminal");
      const got = sections(r.stdout);
      const none = got["bucket info zz"];
      assert.deepEqual(none, ["<no files>"], "a bucket slot without a match turns bash's file names off");
      got["bucket info zz"] = [];
      assertValues(got, "bash");
    } finally {
      await w.close();
    }
  },
);

shellTest(
  "zsh",
  "zsh: regions, profiles, help topics and bucket keys reach _describe, with descriptions",
  async () => {
    const w = await world();
    try {
      const script = `
${ZSH_ASK}
${QUESTIONS.map((q) => `ask ${shellWords(q)}`).join("\n")}
`;
      const r = await runShell("zsh", ["-f", "-c", script], w.env, w.home.cwd);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, "", "nothing on the terminal");
      const described = sections(r.stdout, (l) => l);
      const got = sections(r.stdout, (l) => l.replace(/(?<!\\):.*$/, ""));
      assertValues(got, "zsh");
      assert.ok(described["bucket info"].includes("cv-alpha:US, transient"), described["bucket info"].join());
      assert.ok(described["--profile"].includes("work:the active profile"));
      assert.ok(described["help e"].includes("exit-codes:what each exit code means"));
    } finally {
      await w.close();
    }
  },
);

shellTest(
  "fish",
  "fish: `complete -C` completes a profile and bucket keys (where fish is installed)",
  async () => {
    const w = await world();
    try {
      const asks = ["diazo --profile ", "diazo bucket info cv-", "diazo bucket info zz"];
      const script = [
        "diazo completions fish | source",
        ...asks.map((line) => `echo "== ${line.slice(6)}"; complete -C '${line}'`),
      ].join("\n");
      await Deno.writeTextFile(path.join(w.home.cwd, "zz-file.txt"), "not a bucket");
      const r = await runShell("fish", ["--no-config", "-c", script], w.env, w.home.cwd);
      assert.equal(r.code, 0, r.stderr);
      const got = sections(r.stdout, (l) => l);
      assert.deepEqual(got["--profile"], ["ci\tprofile", "work\tthe active profile"]);
      assert.deepEqual(got["bucket info cv-"], ["cv-alpha\tUS, transient", "cv-beta\tUS, transient"]);
      assert.deepEqual(got["bucket info zz"], [], "no file names for a bucket");
    } finally {
      await w.close();
    }
  },
);

/** `diazo __complete bash -- <words>` as the scripts run it. */
function complete(w: World, words: string[], env = w.env) {
  return spawnDiazo(["__complete", "bash", "--", ...words], { env, cwd: w.home.cwd });
}

Deno.test("remote values are kept a minute per profile and address: the second TAB asks the platform nothing", async () => {
  const w = await world();
  try {
    const first = await complete(w, ["object", "list", ""]);
    assert.deepEqual(lines(first.stdout), ["cv-alpha", "cv-beta"], first.stderr);
    const asked = (await requestLog(w.sb.url, "/oss/v2/buckets")).length;
    assert.ok(asked > 0);
    const made = await diazo(["bucket", "create", "--key", "cv-gamma"], { env: w.env, cwd: w.home.cwd });
    assert.equal(made.code, 0, made.stderr);
    const second = await complete(w, ["object", "list", "cv-"]);
    assert.deepEqual(lines(second.stdout), ["cv-alpha", "cv-beta"], "from the cache, made before cv-gamma");
    assert.equal((await requestLog(w.sb.url, "/oss/v2/buckets")).length, asked + 1, "only bucket create's");
    const cache = path.join(w.home.dir, "cache", "completion");
    const files = [...Deno.readDirSync(cache)].map((e) => e.name);
    assert.equal(files.length, 1, files.join());
    const text = await Deno.readTextFile(path.join(cache, files[0]));
    assert.ok(!text.includes(SANDBOX_SECRET), "the cache holds no secret");
    // Another address is another cache: the same profile against a second sandbox asks it.
    const other = await startTestSandbox();
    try {
      const there = await complete(w, ["object", "list", ""], { ...w.env, DIAZO_BASE_URL: other.url });
      assert.equal(there.code, 1, "an empty sandbox: no buckets, and no file names");
      assert.equal(there.stdout, "");
      assert.ok((await requestLog(other.url, "/oss/v2/buckets")).length > 0);
    } finally {
      await other.close();
    }
  } finally {
    await w.close();
  }
});

Deno.test("a platform that does not answer: no values within the time limit, nothing on stderr", async () => {
  const w = await world();
  try {
    await addFault(w.sb.url, { path: "/oss/", delay_ms: 30_000 });
    const started = Date.now();
    const r = await complete(w, ["bucket", "delete", ""]);
    const took = Date.now() - started;
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, "");
    assert.equal(r.code, 1, "values only: no file names either");
    assert.ok(took < 10_000, `answered in ${took} ms, long before the platform's 30 s`);
  } finally {
    await w.close();
  }
});

Deno.test("without credentials (or with a profile that does not exist) there are no remote values; never a prompt", async () => {
  const w = await world();
  try {
    const before = (await requestLog(w.sb.url)).length;
    const env = { ...w.env };
    delete env.SVC_CLIENT_ID;
    delete env.SVC_CLIENT_SECRET;
    const r = await complete(w, ["bucket", "info", ""], env);
    assert.deepEqual([r.code, r.stdout, r.stderr], [1, "", ""]);
    const secretOnly = await complete(w, ["bucket", "info", ""], { ...env, SVC_CLIENT_ID: "nobody" });
    assert.deepEqual([secretOnly.code, secretOnly.stdout, secretOnly.stderr], [1, "", ""]);
    assert.equal((await requestLog(w.sb.url)).length, before, "the platform was not asked");
    const local = await complete(w, ["--profile", ""], env);
    assert.deepEqual(lines(local.stdout), ["ci", "work"], "local values need no credentials");
    // The --profile on the line chooses whose values: a profile that does not exist has none.
    const ghost = await complete(w, ["--profile", "ghost", "bucket", "info", ""]);
    assert.deepEqual([ghost.code, ghost.stdout, ghost.stderr], [1, "", ""]);
    const work = await complete(w, ["--profile=work", "bucket", "info", ""]);
    assert.deepEqual(lines(work.stdout), ["cv-alpha", "cv-beta"], work.stderr);
  } finally {
    await w.close();
  }
});

Deno.test("--project completes the ids of the projects the login sees, each with its name", async () => {
  const w = await world();
  try {
    const r = await spawnDiazo(["__complete", "zsh", "--", "issue", "list", "--project", ""], {
      env: w.env,
      cwd: w.home.cwd,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, "");
    const rows = lines(r.stdout).map((l) => l.split("\t"));
    const tower = rows.find(([, name]) => name === "Riverside Tower");
    assert.ok(tower, r.stdout);
    assert.match(tower[0], /^b\.[0-9a-f-]{36}$/);
    const byName = await complete(w, ["rfi", "list", "--project", "Riverside"]);
    assert.deepEqual(lines(byName.stdout), [tower[0]], "a name typed finds its id");
  } finally {
    await w.close();
  }
});
