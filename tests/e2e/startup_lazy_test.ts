/**
 * Deno loads its `fetch`, `Request`, `Response`, `Headers` and streams on first use, at ~8 ms of a
 * run. Commands must never reach for them, whether their answers are read whole or streamed
 * (`diazo api`, downloads): their requests go by the raw transport (raw_transport.ts, ARCHITECTURE.md
 * "Raw HTTP/1.1 or fetch"); only a configured proxy sends them by fetch. A child process runs the CLI
 * with those globals watched.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { makeHome, ROOT, RUN_PERMISSIONS, sandboxEnv, startTestSandbox } from "./harness.ts";

const WATCHED = ["fetch", "Request", "Response", "Headers", "ReadableStream"];

/** A module that records every read of the watched globals, then runs diazo's entry point. */
const driver = (main: string) => `
const touched = new Set();
for (const name of ${JSON.stringify(WATCHED)}) {
  const d = Object.getOwnPropertyDescriptor(globalThis, name);
  Object.defineProperty(globalThis, name, {
    configurable: true,
    enumerable: d.enumerable,
    get() {
      touched.add(name);
      return d.get ? d.get.call(globalThis) : d.value;
    },
  });
}
const exit = Deno.exit;
Deno.exit = (code) => {
  Deno.stderr.writeSync(new TextEncoder().encode("\\ntouched: " + JSON.stringify([...touched]) + "\\n"));
  exit(code);
};
await import(${JSON.stringify(main)});
`;

Deno.test("bucket list, object list, auth status, api, uploads and downloads never load Deno's fetch, Request, Response, Headers or streams; a proxy does", async () => {
  const sb = await startTestSandbox();
  const home = await makeHome();
  try {
    const file = path.join(home.dir, "watch.ts");
    await Deno.writeTextFile(file, driver(new URL("src/main.ts", `file://${ROOT}/`).href));
    const env = sandboxEnv(home, sb.url);
    await Deno.writeTextFile(path.join(home.cwd, "a.txt"), "hello");
    const runIn = async (runEnv: Record<string, string>, ...args: string[]) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", ...RUN_PERMISSIONS, "--config", path.join(ROOT, "deno.json"), file, ...args],
        env: runEnv,
        clearEnv: true,
        cwd: home.cwd,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 0, stderr);
      return JSON.parse(/touched: (.*)$/m.exec(stderr)?.[1] ?? "null") as string[];
    };
    const run = (...args: string[]) => runIn(env, ...args);
    // The first list also asks for the token (a form POST); the upload's requests go raw as well.
    assert.deepEqual(await run("bucket", "create", "--key", "lazy-b1"), []);
    assert.deepEqual(await run("bucket", "list", "-o", "json"), []);
    assert.deepEqual(await run("bucket", "list", "--region", "US", "-o", "json"), []);
    assert.deepEqual(await run("object", "upload", "lazy-b1", "a.txt"), []);
    assert.deepEqual(await run("object", "list", "lazy-b1", "-o", "json"), []);
    assert.deepEqual(await run("auth", "status", "-o", "json"), []);
    assert.deepEqual(await run("api", "/oss/v2/buckets"), []);
    // A small object is asked for whole; a larger one is streamed; both by the raw transport.
    assert.deepEqual(await run("object", "download", "lazy-b1", "a.txt", "--out", "b.txt"), []);
    assert.equal(await Deno.readTextFile(path.join(home.cwd, "b.txt")), "hello");
    const big = new Uint8Array(1536 * 1024).map((_, i) => i % 253);
    await Deno.writeFile(path.join(home.cwd, "big.bin"), big);
    assert.deepEqual(await run("object", "upload", "lazy-b1", "big.bin"), []);
    assert.deepEqual(await run("object", "download", "lazy-b1", "big.bin", "--out", "big2.bin"), []);
    assert.deepEqual(await Deno.readFile(path.join(home.cwd, "big2.bin")), big);
    // With a proxy configured, every request goes by fetch (which knows proxies; NO_PROXY lets it
    // reach the sandbox directly).
    const proxied = { ...env, HTTP_PROXY: "http://127.0.0.1:9", NO_PROXY: "127.0.0.1,localhost" };
    assert.ok((await runIn(proxied, "bucket", "list", "-o", "json")).includes("fetch"));
    assert.ok(
      (await runIn(proxied, "object", "download", "lazy-b1", "big.bin", "--out", "big3.bin")).includes(
        "fetch",
      ),
    );
    assert.deepEqual(await Deno.readFile(path.join(home.cwd, "big3.bin")), big);
  } finally {
    await home.cleanup();
    await sb.close();
  }
});
