/** The keychain backends' pure parts on all three OSes, and the child-process runner. */
import assert from "node:assert/strict";
import path from "node:path";
import { keychainFor, KeychainUnavailable } from "../../src/platform/keychain.ts";
import {
  interpretSecretTool,
  linuxKeychain,
  secretToolArgs,
  secretToolReason,
} from "../../src/platform/keychain_linux.ts";
import {
  decodeMacSecret,
  encodeMacSecret,
  interpretSecurityExit,
  macosKeychain,
  securityAddLine,
  securityArgs,
  securityQuote,
} from "../../src/platform/keychain_macos.ts";
import { keychainChildEnv, runTool } from "../../src/platform/keychain_run.ts";
import {
  credentialError,
  credentialTarget,
  CREDENTIALW,
  decodeCredential,
  encodeCredential,
  utf16z,
} from "../../src/platform/keychain_windows.ts";

const TRICKY = "line one\n\"double\" 'single' back\\slash\n\tünïcödé ✓ 🚀 end\n";
const unix = Deno.build.os !== "windows";

// --- Linux: secret-tool ---

Deno.test("secret-tool argv: attributes service and account, never the secret", () => {
  assert.deepEqual(secretToolArgs("store", "diazo", "work"), [
    "store",
    "--label=diazo (work)",
    "service",
    "diazo",
    "account",
    "work",
  ]);
  assert.deepEqual(secretToolArgs("lookup", "diazo", "work"), [
    "lookup",
    "service",
    "diazo",
    "account",
    "work",
  ]);
  assert.deepEqual(secretToolArgs("clear", "s", "a"), ["clear", "service", "s", "account", "a"]);
});

Deno.test("secret-tool results: 0 is the secret, 1 with empty stderr is none, else unavailable", () => {
  assert.equal(interpretSecretTool({ code: 0, stdout: TRICKY, stderr: "" }), TRICKY);
  assert.equal(interpretSecretTool({ code: 1, stdout: "", stderr: "" }), null);
  assert.throws(
    () =>
      interpretSecretTool({
        code: 1,
        stdout: "",
        stderr: "secret-tool: Cannot autolaunch D-Bus without X11 $DISPLAY\n",
      }),
    (e) => e instanceof KeychainUnavailable && e.message === "no D-Bus session bus",
  );
  assert.throws(() => interpretSecretTool({ code: 2, stdout: "", stderr: "" }), KeychainUnavailable);
});

Deno.test("secret-tool failures are explained in words a user can act on", () => {
  assert.equal(
    secretToolReason("secret-tool: Cannot autolaunch D-Bus without X11 $DISPLAY"),
    "no D-Bus session bus",
  );
  assert.match(
    secretToolReason(
      "secret-tool: The name org.freedesktop.secrets was not provided by any .service files",
    ),
    /no Secret Service/,
  );
  assert.match(
    secretToolReason(
      'secret-tool: Object does not exist at path "/org/freedesktop/secrets/collection/login"',
    ),
    /locked/,
  );
  assert.equal(secretToolReason("secret-tool: boom\nmore"), "secret-tool failed: secret-tool: boom");
});

// --- macOS: security ---

/** Splits a line the way `security -i` does: quotes group, backslash escapes the next character. */
function splitLikeSecurity(line: string): string[] {
  const out: string[] = [];
  let cur: string | undefined;
  let quote = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (cur === undefined) {
      if (/\s/.test(c)) continue;
      cur = "";
      if (c === '"' || c === "'") {
        quote = c;
        continue;
      }
    }
    if (c === "\\") {
      cur += line[++i] ?? "";
    } else if (quote ? c === quote : /\s/.test(c)) {
      out.push(cur);
      cur = undefined;
      quote = "";
    } else {
      cur += c;
    }
  }
  if (cur !== undefined) out.push(cur);
  return out;
}

Deno.test("security -i quoting survives quotes, backslashes and spaces; newlines are refused", () => {
  for (const w of ['a "quoted" word', "back\\slash\\", "it's", "ünï ✓", ""]) {
    assert.deepEqual(splitLikeSecurity(securityQuote(w)), [w]);
  }
  assert.throws(() => securityQuote("two\nlines"), KeychainUnavailable);
  assert.throws(() => securityQuote("nul\0"), KeychainUnavailable);
});

Deno.test("security -i add line: one line, -U, the secret only in encoded form", () => {
  const line = securityAddLine("diazo", 'we"ird', TRICKY);
  assert.ok(line.endsWith("\n"));
  assert.equal(line.indexOf("\n"), line.length - 1, "exactly one line");
  assert.ok(!line.includes("ünïcödé") && !line.includes("double"), "the raw secret is not on the line");
  const words = splitLikeSecurity(line.slice(0, -1));
  assert.deepEqual(words.slice(0, 7), ["add-generic-password", "-U", "-s", "diazo", "-a", 'we"ird', "-w"]);
  assert.equal(words.length, 8);
  assert.equal(decodeMacSecret(words[7] + "\n"), TRICKY);
  assert.throws(() => securityAddLine("diazo", "a", "x".repeat(3_000)), /too long/);
});

Deno.test("macOS secret encoding: printable base64, exact round trip, foreign items as they are", () => {
  const enc = encodeMacSecret(TRICKY);
  assert.match(enc, /^base64:[A-Za-z0-9+/=]+$/);
  assert.equal(decodeMacSecret(enc + "\n"), TRICKY);
  assert.equal(decodeMacSecret(encodeMacSecret("")), "");
  assert.equal(decodeMacSecret("plain password\n"), "plain password");
  assert.throws(() => decodeMacSecret("base64:%%%\n"), KeychainUnavailable);
});

Deno.test("security argv and exit codes: 44 is not found, others explain themselves", () => {
  assert.deepEqual(securityArgs("find", "diazo", "p"), [
    "find-generic-password",
    "-s",
    "diazo",
    "-a",
    "p",
    "-w",
  ]);
  assert.deepEqual(securityArgs("delete", "diazo", "p"), [
    "delete-generic-password",
    "-s",
    "diazo",
    "-a",
    "p",
  ]);
  assert.equal(interpretSecurityExit(0, ""), "ok");
  assert.equal(interpretSecurityExit(44, "security: SecKeychainSearchCopyNext: not found"), "not-found");
  assert.throws(() => interpretSecurityExit(36, ""), /locked/);
  assert.throws(() => interpretSecurityExit(51, ""), /denied/);
  assert.throws(
    () => interpretSecurityExit(9, "security: something odd\nmore"),
    (e) =>
      e instanceof KeychainUnavailable && e.message === "security failed (exit 9): security: something odd",
  );
});

// --- Windows: Credential Manager structs ---

Deno.test("Windows: target name and NUL-terminated UTF-16LE strings", () => {
  assert.equal(credentialTarget("diazo", "work"), "diazo:work");
  assert.deepEqual([...utf16z("ab")], [0x61, 0, 0x62, 0, 0, 0]);
  assert.deepEqual([...utf16z("é🚀")], [0xe9, 0, 0x3d, 0xd8, 0x80, 0xde, 0, 0], "surrogate pairs kept");
  assert.deepEqual([...utf16z("")], [0, 0]);
});

Deno.test("Windows: CREDENTIALW layout on 64-bit (80 bytes, generic, persisted locally)", () => {
  const bytes = encodeCredential({
    target: 0x1122334455n,
    user: 0x66778899aan,
    blob: 0xdeadbeef00n,
    blobSize: 123,
  });
  assert.equal(bytes.length, 80);
  const v = new DataView(bytes.buffer);
  assert.equal(v.getUint32(0, true), 0, "Flags");
  assert.equal(v.getUint32(4, true), 1, "Type = CRED_TYPE_GENERIC");
  assert.equal(v.getBigUint64(8, true), 0x1122334455n, "TargetName");
  assert.equal(v.getBigUint64(16, true), 0n, "Comment");
  assert.equal(v.getUint32(32, true), 123, "CredentialBlobSize");
  assert.equal(v.getBigUint64(40, true), 0xdeadbeef00n, "CredentialBlob");
  assert.equal(v.getUint32(48, true), 2, "Persist = CRED_PERSIST_LOCAL_MACHINE");
  assert.equal(v.getUint32(52, true), 0, "AttributeCount");
  assert.equal(v.getBigUint64(72, true), 0x66778899aan, "UserName");
  assert.deepEqual(decodeCredential(bytes.buffer), { blobSize: 123, blob: 0xdeadbeef00n });
  assert.equal(CREDENTIALW.size, 80);
});

Deno.test("Windows: error codes", () => {
  assert.equal(credentialError(1168), "not-found");
  assert.match(credentialError(1312), /logon session/);
  assert.equal(credentialError(42), "Credential Manager error 42");
});

// --- choosing a backend, environment, running tools ---

Deno.test("keychainFor picks the backend of each OS", () => {
  assert.equal(keychainFor("linux")?.name, "secret-service");
  assert.equal(keychainFor("darwin")?.name, "macos-keychain");
  assert.equal(keychainFor("windows")?.name, "windows-credential-manager");
  assert.equal(keychainFor("freebsd"), undefined);
});

Deno.test("keychain tools get an allow-listed environment: the session, never a client secret", () => {
  const env = keychainChildEnv({
    PATH: "/bin",
    HOME: "/home/u",
    DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/1/bus",
    SVC_CLIENT_SECRET: "s3cret",
    APS_CLIENT_SECRET: "s3cret",
    DIAZO_TOKEN_STORE: "keychain",
    UNSET: undefined,
  });
  assert.deepEqual(env, {
    PATH: "/bin",
    HOME: "/home/u",
    DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/1/bus",
  });
});

Deno.test("a missing keychain tool is KeychainUnavailable", async () => {
  const missing = path.join(await Deno.makeTempDir(), "no-such-tool");
  await assert.rejects(
    runTool(missing, [], { env: {} }),
    (e) => e instanceof KeychainUnavailable && /not found/.test(e.message),
  );
  await assert.rejects(linuxKeychain({ command: missing }).get("s", "a"), KeychainUnavailable);
  await assert.rejects(macosKeychain({ command: missing }).set("s", "a", "x"), KeychainUnavailable);
});

/** Writes an executable shell script into a fresh temp dir. */
async function fakeTool(name: string, body: string): Promise<{ dir: string; cmd: string }> {
  const dir = await Deno.makeTempDir({ prefix: "diazo-fake-" });
  const cmd = path.join(dir, name);
  await Deno.writeTextFile(cmd, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return { dir, cmd };
}

/** True while `pid` runs (a zombie waiting for its parent's reaper counts as gone). */
function alive(pid: number): boolean {
  if (Deno.build.os === "linux") {
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
      return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
    } catch {
      return false;
    }
  }
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

Deno.test({
  name: "a hanging keychain tool is killed with what it started, within a second of the deadline",
  ignore: !unix,
  async fn() {
    const { dir, cmd } = await fakeTool("secret-tool", 'sleep 30 &\necho $! > "$0.pid"\nwait');
    try {
      const t0 = performance.now();
      await assert.rejects(
        linuxKeychain({ command: cmd, timeoutMs: 300, env: { PATH: Deno.env.get("PATH") } }).get("s", "a"),
        (e) => e instanceof KeychainUnavailable && /did not answer within 0.3 s/.test(e.message),
      );
      const elapsed = performance.now() - t0;
      assert.ok(elapsed >= 280 && elapsed < 1_300, `returned after ${Math.round(elapsed)} ms`);
      const sleeper = Number(await Deno.readTextFile(`${cmd}.pid`));
      await new Promise((r) => setTimeout(r, 50));
      assert.ok(!alive(sleeper), "the tool's child was killed too");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "runTool: stdin reaches the tool, argv and env are only what was given",
  ignore: !unix,
  async fn() {
    const { dir, cmd } = await fakeTool(
      "tool",
      'cat > "$0.stdin"\nprintf "%s\\n" "$@" > "$0.argv"\nenv > "$0.env"\necho out; echo err >&2; exit 3',
    );
    try {
      const r = await runTool(cmd, ["one", "two words"], {
        stdin: TRICKY,
        env: { PATH: "/usr/bin:/bin", ONLY: "me" },
      });
      assert.deepEqual(r, { code: 3, stdout: "out\n", stderr: "err\n" });
      assert.equal(await Deno.readTextFile(`${cmd}.stdin`), TRICKY);
      assert.equal(await Deno.readTextFile(`${cmd}.argv`), "one\ntwo words\n");
      const env = await Deno.readTextFile(`${cmd}.env`);
      assert.match(env, /^ONLY=me$/m);
      assert.doesNotMatch(env, /^HOME=/m);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "macOS backend against a fake security: add via -i on stdin, 44 is null, -w output decoded",
  ignore: !unix,
  async fn() {
    const { dir, cmd } = await fakeTool(
      "security",
      [
        'printf "%s\\n" "$@" >> "$0.argv"',
        'case "$1" in',
        '  -i) cat > "$0.stdin"; exit 0 ;;',
        '  find-generic-password) [ -f "$0.stdin" ] || exit 44; sed -n \'s/.* -w "\\(.*\\)"$/\\1/p\' "$0.stdin"; exit 0 ;;',
        "  delete-generic-password) exit 44 ;;",
        "esac",
        "exit 1",
      ].join("\n"),
    );
    try {
      const kc = macosKeychain({ command: cmd, env: {} });
      assert.equal(await kc.get("diazo", "p"), null);
      await kc.set("diazo", "p", TRICKY);
      const argv = await Deno.readTextFile(`${cmd}.argv`);
      assert.ok(!argv.includes("double") && !argv.includes(encodeMacSecret(TRICKY)), "secret not in argv");
      assert.match(argv, /^-i$/m);
      assert.match(
        await Deno.readTextFile(`${cmd}.stdin`),
        /^add-generic-password -U -s "diazo" -a "p" -w "base64:/,
      );
      assert.equal(await kc.get("diazo", "p"), TRICKY);
      assert.equal(await kc.delete("diazo", "p"), false);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "Linux backend against a fake secret-tool: no bus is KeychainUnavailable naming the reason",
  ignore: !unix,
  async fn() {
    const { dir, cmd } = await fakeTool(
      "secret-tool",
      'echo "secret-tool: Cannot autolaunch D-Bus without X11 \\$DISPLAY" >&2; exit 1',
    );
    try {
      await assert.rejects(
        linuxKeychain({ command: cmd, env: {} }).set("s", "a", "x"),
        (e) => e instanceof KeychainUnavailable && e.message === "no D-Bus session bus",
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
