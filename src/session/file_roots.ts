/**
 * Which local files the tool server may touch (issue: a tool could upload diazo's own tokens and then
 * share them): only paths inside the allowed roots (`serve --allow-dir`, default the working
 * directory), never inside diazo's config or state directory, judged after symlinks are resolved
 * and by identity (device and inode): a hard link to `tokens.json` has a harmless path of its own.
 */
import path from "node:path";
import { DiazoError, usageError } from "../core/errors.ts";

/** Where a tool may read and write, and where it never may. */
export interface FileRoots {
  /** Directories whose files tools may use. */
  allowed: readonly string[];
  /** Directories tools never touch, even inside an allowed one (config and state dirs). */
  denied: readonly string[];
  /**
   * The identities (device and inode) of every file seen in the denied directories during this run: a
   * hard link made to a file that was later replaced (an atomic rewrite of tokens.json) keeps the old
   * file's identity, which the denied directories no longer hold.
   */
  seen?: Set<string>;
}

/** True when `child` is `parent` or inside it (both absolute and resolved). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** A path with its symlinks resolved; for a path that does not exist yet, its nearest existing parent's. */
async function realPathOf(p: string): Promise<string> {
  try {
    return await Deno.realPath(p);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    const parent = path.dirname(p);
    return parent === p ? p : path.join(await realPathOf(parent), path.basename(p));
  }
}

/**
 * The real path of `file` when a tool may use it; a usage error naming the rule otherwise. A relative
 * path is resolved against the first allowed directory (the server's working directory is unknown to the
 * model), `cwd` when none is allowed. The rules are checked on the path before the file's existence is:
 * a path outside the roots is refused the same whether or not it exists (no probing of other
 * directories). A missing file is then the catalog's "File not found", with the directory.
 */
export async function toolFile(file: string, cwd: string, roots: FileRoots): Promise<string> {
  const base = roots.allowed[0] ?? cwd;
  const real = await realPathOf(path.resolve(base, file));
  const denied = await Promise.all(roots.denied.map(realPathOf));
  if (denied.some((d) => isInside(d, real))) {
    throw usageError(
      `the tool server may not use ${file}: it is inside diazo's configuration or state directory`,
      "Tools never read diazo's own credentials or records; upload a file from a project directory.",
    );
  }
  const allowed = await Promise.all(roots.allowed.map(realPathOf));
  if (!allowed.some((a) => isInside(a, real))) {
    throw usageError(
      `the tool server may not use ${file}: it is outside the directories it was allowed (${
        allowed.join(", ")
      })`,
      "Ask the user to start the server with that directory allowed (the allow-dir option of `diazo serve`), or " +
        "use a file inside the allowed directories.",
    );
  }
  const info = await Deno.stat(real).catch((e) => {
    if (e instanceof Deno.errors.NotFound) {
      throw new DiazoError("file_not_found", { params: { file, root: base } });
    }
    throw e;
  });
  if (await sharesProtectedIdentity(info, denied, roots.seen ?? new Set())) {
    throw usageError(
      `the tool server may not use ${file}: it is a hard link to a file in diazo's configuration or state directory`,
      "Tools never read diazo's own credentials or records; upload a file from a project directory.",
    );
  }
  return real;
}

/** Notes the identity of every file in the denied directories now (the tool server calls it as it starts). */
export async function rememberProtected(roots: FileRoots): Promise<void> {
  if (!roots.seen) return;
  await walkProtected(await Promise.all(roots.denied.map(realPathOf)), roots.seen);
}

/** The most entries of the protected directories compared by identity before a hard link is refused outright. */
const MAX_PROTECTED_ENTRIES = 20_000;

const identity = (info: Deno.FileInfo) => `${info.dev}:${info.ino}`;

/**
 * Adds the identity of every file in `denied` to `seen`; true when the walk met more than
 * MAX_PROTECTED_ENTRIES entries (then a match is assumed: refused, not guessed).
 */
async function walkProtected(denied: readonly string[], seen: Set<string>): Promise<boolean> {
  let count = 0;
  const walk = async (dir: string): Promise<boolean> => {
    try {
      for await (const entry of Deno.readDir(dir)) {
        if (++count > MAX_PROTECTED_ENTRIES) return true;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory) {
          if (await walk(full)) return true;
        } else if (entry.isFile) {
          const other = await Deno.lstat(full).catch(() => undefined);
          if (other?.ino != null) seen.add(identity(other));
        }
      }
    } catch {
      // a directory that does not exist (or cannot be read) holds nothing a tool could reach through it
    }
    return false;
  };
  for (const dir of denied) if (await walk(dir)) return true;
  return false;
}

/**
 * True when the file of `info` is, or was during this run, a file inside a `denied` directory (same
 * device and inode): a hard link, also one left over from before the file was replaced.
 */
async function sharesProtectedIdentity(
  info: Deno.FileInfo,
  denied: readonly string[],
  seen: Set<string>,
): Promise<boolean> {
  if (info.ino === null) return false;
  if (await walkProtected(denied, seen) && (info.nlink ?? 1) > 1) return true;
  return seen.has(identity(info));
}
