/**
 * Pure builders of the release's side files: `SHA256SUMS` (the format `sha256sum -c` reads) and a
 * CycloneDX SBOM of the npm packages recorded in `deno.lock`.
 */
import { createHash } from "node:crypto";

/** One file of a release and the SHA-256 of its bytes (lower-case hex). */
export interface ChecksumEntry {
  name: string;
  sha256: string;
}

/** The SHA-256 of some bytes, as lower-case hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** `SHA256SUMS` text: one `<hex>  <name>` line per file, sorted by name, as `sha256sum` writes it. */
export function formatSha256Sums(entries: readonly ChecksumEntry[]): string {
  const seen = new Set<string>();
  for (const e of entries) {
    if (!/^[0-9a-f]{64}$/.test(e.sha256)) {
      throw new Error(`not a SHA-256 hex digest for ${e.name}: ${e.sha256}`);
    }
    if (e.name === "" || /[\s/\\]/.test(e.name)) throw new Error(`not a plain file name: '${e.name}'`);
    if (seen.has(e.name)) throw new Error(`listed twice: ${e.name}`);
    seen.add(e.name);
  }
  return [...entries]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((e) => `${e.sha256}  ${e.name}\n`)
    .join("");
}

/** Parses `SHA256SUMS` text (text or binary mode markers); malformed lines are an error. */
export function parseSha256Sums(text: string): ChecksumEntry[] {
  return text.split(/\r?\n/).filter((l) => l.trim() !== "").map((line, i) => {
    const m = /^([0-9a-fA-F]{64}) [ *](\S.*)$/.exec(line);
    if (!m) throw new Error(`SHA256SUMS line ${i + 1} is malformed: ${line}`);
    return { name: m[2], sha256: m[1].toLowerCase() };
  });
}

/** The parts of a `deno.lock` (version 4 or 5) the SBOM reads. */
export interface DenoLock {
  version: string;
  specifiers?: Record<string, string>;
  npm?: Record<string, { integrity?: string; dependencies?: string[]; optionalDependencies?: string[] }>;
}

/** What the SBOM says about the product itself. */
export interface SbomSubject {
  name: string;
  version: string;
  /** ISO 8601 time of the build. */
  timestamp: string;
  /** A UUID, so that two builds of the same version have different serial numbers. */
  serial: string;
}

/** A CycloneDX 1.5 component (the fields written here). */
export interface CdxComponent {
  type: "library" | "application";
  "bom-ref": string;
  group?: string;
  name: string;
  version: string;
  purl: string;
  hashes?: { alg: string; content: string }[];
}

/** A CycloneDX 1.5 JSON document (the fields written here). */
export interface CdxBom {
  bomFormat: "CycloneDX";
  specVersion: "1.5";
  serialNumber: string;
  version: 1;
  metadata: {
    timestamp: string;
    tools: { components: { type: "application"; name: string }[] };
    component: CdxComponent;
  };
  components: CdxComponent[];
  dependencies: { ref: string; dependsOn: string[] }[];
}

/** `name@version[_peer...]` (a lock key) split into package name and version. */
export function splitLockKey(key: string): { name: string; version: string } {
  const at = key.indexOf("@", key.startsWith("@") ? 1 : 0);
  if (at <= 0) throw new Error(`deno.lock npm key without a version: ${key}`);
  return { name: key.slice(0, at), version: key.slice(at + 1).split("_")[0] };
}

/** The package URL of an npm package (`@` of a scope percent-encoded, as the purl spec asks). */
export function npmPurl(name: string, version: string): string {
  return `pkg:npm/${name.replace(/^@/, "%40")}@${version}`;
}

const HASH_ALGS: Record<string, string> = {
  sha512: "SHA-512",
  sha384: "SHA-384",
  sha256: "SHA-256",
  sha1: "SHA-1",
};

/** An SRI integrity string (`sha512-<base64>`) as CycloneDX hashes (hex); unknown algorithms are skipped. */
export function integrityHashes(integrity: string | undefined): { alg: string; content: string }[] {
  if (!integrity) return [];
  return integrity.split(/\s+/).filter(Boolean).flatMap((sri) => {
    const dash = sri.indexOf("-");
    const alg = HASH_ALGS[sri.slice(0, dash)];
    if (dash < 0 || !alg) return [];
    const bin = atob(sri.slice(dash + 1));
    const hex = Array.from(bin, (c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");
    return [{ alg, content: hex }];
  });
}

/** Resolves a lock dependency entry (`name`, `name@version` or a full key) to a lock key. */
function resolveDependency(dep: string, keys: readonly string[]): string | undefined {
  if (keys.includes(dep)) return dep;
  const hasVersion = dep.indexOf("@", dep.startsWith("@") ? 1 : 0) > 0;
  const want = hasVersion ? splitLockKey(dep) : { name: dep, version: undefined };
  const matches = keys.filter((k) => {
    const p = splitLockKey(k);
    return p.name === want.name && (want.version === undefined || p.version === want.version);
  });
  return matches[0];
}

/** The lock keys the project imports directly (its `specifiers` that are npm packages). */
export function directLockKeys(lock: DenoLock): string[] {
  const out: string[] = [];
  for (const [spec, resolved] of Object.entries(lock.specifiers ?? {})) {
    if (!spec.startsWith("npm:")) continue;
    const { name } = splitLockKey(spec.slice(4));
    out.push(`${name}@${resolved}`);
  }
  return out.sort();
}

/** A CycloneDX 1.5 SBOM of every npm package in the lock, with the dependency graph between them. */
export function cycloneDxSbom(lock: DenoLock, subject: SbomSubject): CdxBom {
  if (!["4", "5"].includes(lock.version)) throw new Error(`unsupported deno.lock version ${lock.version}`);
  const npm = lock.npm ?? {};
  const keys = Object.keys(npm).sort();
  const refOf = (key: string) => {
    const { name, version } = splitLockKey(key);
    return npmPurl(name, version);
  };
  const components = new Map<string, CdxComponent>();
  const deps = new Map<string, Set<string>>();
  for (const key of keys) {
    const { name, version } = splitLockKey(key);
    const ref = refOf(key);
    const slash = name.startsWith("@") ? name.indexOf("/") : -1;
    const hashes = integrityHashes(npm[key].integrity);
    components.set(ref, {
      type: "library",
      "bom-ref": ref,
      ...(slash > 0 ? { group: name.slice(0, slash) } : {}),
      name: slash > 0 ? name.slice(slash + 1) : name,
      version,
      purl: ref,
      ...(hashes.length ? { hashes } : {}),
    });
    const set = deps.get(ref) ?? new Set<string>();
    for (const d of [...(npm[key].dependencies ?? []), ...(npm[key].optionalDependencies ?? [])]) {
      const target = resolveDependency(d, keys);
      if (!target) throw new Error(`deno.lock: ${key} depends on ${d}, which the lock does not hold`);
      set.add(refOf(target));
    }
    deps.set(ref, set);
  }
  const rootRef = `pkg:generic/${subject.name}@${subject.version}`;
  const direct = directLockKeys(lock).map((k) => {
    const target = resolveDependency(k, keys);
    if (!target) throw new Error(`deno.lock: specifier ${k} has no npm entry`);
    return refOf(target);
  });
  return {
    bomFormat: "CycloneDX",
    specVersion: "1.5",
    serialNumber: `urn:uuid:${subject.serial}`,
    version: 1,
    metadata: {
      timestamp: subject.timestamp,
      tools: { components: [{ type: "application", name: "diazo scripts/build.ts" }] },
      component: {
        type: "application",
        "bom-ref": rootRef,
        name: subject.name,
        version: subject.version,
        purl: rootRef,
      },
    },
    components: [...components.values()],
    dependencies: [
      { ref: rootRef, dependsOn: [...new Set(direct)].sort() },
      ...[...deps.entries()].map(([ref, set]) => ({ ref, dependsOn: [...set].sort() })),
    ],
  };
}
