/** SHA256SUMS and the CycloneDX SBOM: format, round trip, checked by the real `sha256sum -c`, and the real deno.lock. */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import path from "node:path";
import {
  cycloneDxSbom,
  type DenoLock,
  directLockKeys,
  formatSha256Sums,
  integrityHashes,
  npmPurl,
  parseSha256Sums,
  sha256Hex,
  splitLockKey,
} from "../../scripts/release_files.ts";
import { ROOT } from "../e2e/harness.ts";

const enc = new TextEncoder();
const SUBJECT = {
  name: "diazo",
  version: "1.2.3",
  timestamp: "2026-01-02T03:04:05.000Z",
  serial: "00000000-0000-4000-8000-000000000000",
};

Deno.test("sha256Hex matches an independent digest", () => {
  const bytes = enc.encode("diazo release");
  assert.equal(sha256Hex(bytes), createHash("sha256").update("diazo release").digest("hex"));
  assert.equal(
    sha256Hex(new Uint8Array()),
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
});

Deno.test("formatSha256Sums: sorted `<hex>  <name>` lines; parseSha256Sums reads them back", () => {
  const a = { name: "diazo-1.2.3-x86_64-unknown-linux-gnu", sha256: sha256Hex(enc.encode("a")) };
  const b = { name: "diazo-1.2.3-aarch64-apple-darwin", sha256: sha256Hex(enc.encode("b")) };
  const text = formatSha256Sums([a, b]);
  assert.equal(text, `${b.sha256}  ${b.name}\n${a.sha256}  ${a.name}\n`);
  assert.deepEqual(parseSha256Sums(text), [b, a]);
  // binary-mode marker and upper-case hex, as other tools write them
  assert.deepEqual(parseSha256Sums(`${a.sha256.toUpperCase()} *${a.name}\r\n`), [a]);
});

Deno.test("formatSha256Sums refuses what sha256sum could not check", () => {
  const ok = sha256Hex(enc.encode("x"));
  assert.throws(() => formatSha256Sums([{ name: "a", sha256: "abc" }]), /not a SHA-256/);
  assert.throws(() => formatSha256Sums([{ name: "dir/a", sha256: ok }]), /plain file name/);
  assert.throws(() => formatSha256Sums([{ name: "a b", sha256: ok }]), /plain file name/);
  assert.throws(() => formatSha256Sums([{ name: "a", sha256: ok }, { name: "a", sha256: ok }]), /twice/);
  assert.throws(() => parseSha256Sums(`${ok}  a\nnot a line\n`), /line 2 is malformed/);
});

async function sha256Checker(): Promise<string[] | undefined> {
  for (const cmd of [["sha256sum"], ["shasum", "-a", "256"]]) {
    try {
      const out = await new Deno.Command(cmd[0], {
        args: [...cmd.slice(1), "--version"],
        stdout: "null",
        stderr: "null",
      })
        .output();
      if (out.success) return cmd;
    } catch { /* not installed */ }
  }
  return undefined;
}

Deno.test("the real sha256sum -c accepts our SHA256SUMS and catches a changed file", async (t) => {
  const checker = await sha256Checker();
  if (!checker) {
    console.log("skipped: neither sha256sum nor shasum is installed");
    return;
  }
  const dir = await Deno.makeTempDir({ prefix: "diazo-sums-" });
  try {
    const files: Record<string, string> = {
      "diazo-1.2.3-x86_64-unknown-linux-gnu": "#!/bin/sh\n",
      "diazo-1.2.3.cdx.json": "{}\n",
    };
    for (const [n, c] of Object.entries(files)) await Deno.writeTextFile(path.join(dir, n), c);
    await Deno.writeTextFile(
      path.join(dir, "SHA256SUMS"),
      formatSha256Sums(
        Object.entries(files).map(([name, c]) => ({ name, sha256: sha256Hex(enc.encode(c)) })),
      ),
    );
    const check = () =>
      new Deno.Command(checker[0], {
        args: [...checker.slice(1), "-c", "SHA256SUMS"],
        cwd: dir,
        stdout: "piped",
        stderr: "piped",
      })
        .output();
    await t.step("intact files verify", async () => assert.equal((await check()).code, 0));
    await t.step("a changed file fails", async () => {
      await Deno.writeTextFile(path.join(dir, "diazo-1.2.3-x86_64-unknown-linux-gnu"), "#!/bin/sh\nevil\n");
      assert.notEqual((await check()).code, 0);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("lock keys, purls and SRI integrity become CycloneDX fields", () => {
  assert.deepEqual(splitLockKey("@scope/pkg@1.2.3_peer@4.0.0"), { name: "@scope/pkg", version: "1.2.3" });
  assert.deepEqual(splitLockKey("yaml@2.9.1"), { name: "yaml", version: "2.9.1" });
  assert.throws(() => splitLockKey("noversion"), /without a version/);
  assert.equal(npmPurl("@scope/pkg", "1.2.3"), "pkg:npm/%40scope/pkg@1.2.3");
  const digest = createHash("sha512").update("pkg").digest();
  const [h] = integrityHashes(`sha512-${digest.toString("base64")}`);
  assert.deepEqual(h, { alg: "SHA-512", content: digest.toString("hex") });
  assert.deepEqual(integrityHashes("md5-AAAA"), []);
  assert.deepEqual(integrityHashes(undefined), []);
});

const LOCK: DenoLock = {
  version: "5",
  specifiers: { "npm:@scope/top@^1.0.0": "1.0.1_peer@2.0.0", "npm:leaf@2": "2.0.0", "jsr:@std/x@1": "1.0.0" },
  npm: {
    "@scope/top@1.0.1_peer@2.0.0": {
      integrity: `sha512-${createHash("sha512").update("top").digest("base64")}`,
      dependencies: ["leaf", "dup@1.0.0"],
      optionalDependencies: ["peer"],
    },
    "leaf@2.0.0": { integrity: "sha512-AAAA" },
    "dup@1.0.0": {},
    "dup@3.0.0": {},
    "peer@2.0.0": {},
  },
};

Deno.test("cycloneDxSbom: components, hashes, the dependency graph and the product's direct dependencies", () => {
  const bom = cycloneDxSbom(LOCK, SUBJECT);
  assert.equal(bom.bomFormat, "CycloneDX");
  assert.equal(bom.specVersion, "1.5");
  assert.equal(bom.serialNumber, `urn:uuid:${SUBJECT.serial}`);
  assert.equal(bom.metadata.component.name, "diazo");
  assert.equal(bom.metadata.component.version, "1.2.3");
  assert.equal(bom.metadata.timestamp, SUBJECT.timestamp);
  const top = bom.components.find((c) => c.name === "top")!;
  assert.equal(top.group, "@scope");
  assert.equal(top.version, "1.0.1");
  assert.equal(top.purl, "pkg:npm/%40scope/top@1.0.1");
  assert.equal(top.hashes?.[0].content, createHash("sha512").update("top").digest("hex"));
  assert.equal(bom.components.length, 5);
  const deps = Object.fromEntries(bom.dependencies.map((d) => [d.ref, d.dependsOn]));
  assert.deepEqual(deps["pkg:npm/%40scope/top@1.0.1"], [
    "pkg:npm/dup@1.0.0",
    "pkg:npm/leaf@2.0.0",
    "pkg:npm/peer@2.0.0",
  ]);
  assert.deepEqual(deps["pkg:generic/diazo@1.2.3"], ["pkg:npm/%40scope/top@1.0.1", "pkg:npm/leaf@2.0.0"]);
  assert.deepEqual(directLockKeys(LOCK), ["@scope/top@1.0.1_peer@2.0.0", "leaf@2.0.0"]);
});

Deno.test("cycloneDxSbom refuses a lock it cannot describe truthfully", () => {
  assert.throws(() => cycloneDxSbom({ ...LOCK, version: "3" }, SUBJECT), /unsupported deno.lock version 3/);
  const broken: DenoLock = { version: "5", npm: { "a@1.0.0": { dependencies: ["missing"] } } };
  assert.throws(() => cycloneDxSbom(broken, SUBJECT), /a@1.0.0 depends on missing/);
});

Deno.test("the SBOM of the real deno.lock lists every npm package, with a closed graph, and the import map's packages as direct dependencies", async () => {
  const lock = JSON.parse(await Deno.readTextFile(path.join(ROOT, "deno.lock"))) as DenoLock;
  const bom = cycloneDxSbom(lock, SUBJECT);
  const refs = new Set(bom.components.map((c) => c["bom-ref"]));
  for (const key of Object.keys(lock.npm ?? {})) {
    const { name, version } = splitLockKey(key);
    assert.ok(refs.has(npmPurl(name, version)), `${key} is missing from the SBOM`);
  }
  for (const c of bom.components) assert.ok(c.hashes?.length, `${c.name} has no hash`);
  for (const d of bom.dependencies) {
    for (const r of d.dependsOn) assert.ok(refs.has(r), `${d.ref} -> ${r} dangles`);
  }
  const config = JSON.parse(await Deno.readTextFile(path.join(ROOT, "deno.json"))) as {
    imports: Record<string, string>;
  };
  const imported = new Set(
    Object.values(config.imports).filter((v) => v.startsWith("npm:") && !v.startsWith("npm:/")).map((v) =>
      splitLockKey(v.slice(4)).name
    ),
  );
  const root = bom.dependencies.find((d) => d.ref === "pkg:generic/diazo@1.2.3")!;
  const direct = new Set(
    root.dependsOn.map((r) => bom.components.find((c) => c["bom-ref"] === r)!)
      .map((c) => (c.group ? `${c.group}/${c.name}` : c.name)),
  );
  assert.deepEqual([...direct].sort(), [...imported].sort());
});
