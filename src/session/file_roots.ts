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
 * model), `cwd` when none is allowed. A missing file is the catalog's "File not found", with the directory.
 */
export async function toolFile(file: string, cwd: string, roots: FileRoots): Promise<string> {
  const base = roots.allowed[0] ?? cwd;
  const wanted = path.resolve(base, file);
  let real: string;
  try {
    real = await Deno.realPath(wanted);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new DiazoError("file_not_found", { params: { file, root: base } });
    }
    throw e;
  }
  const denied = await Promise.all(roots.denied.map(realPathOf));
  if (denied.some((d) => isInside(d, real))) {
    throw usageError(
      `the tool server may not use ${file}: it is inside diazo's configuration or state directory`,
      "Tools never read diazo's own credentials or records; upload a file from a project directory.",
    );
  }
  if (await sharesProtectedIdentity(real, denied)) {
    throw usageError(
      `the tool server may not use ${file}: it is a hard link to a file in diazo's configuration or state directory`,
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
  return real;
}

/** The most entries of the protected directories compared by identity before a hard link is refused outright. */
const MAX_PROTECTED_ENTRIES = 20_000;

/**
 * True when `real` is one file with a file inside a `denied` directory (same device and inode). Only
 * a file with more than one link can be: the protected directories are walked only then. A walk
 * that meets more than MAX_PROTECTED_ENTRIES entries counts as a match (refused, not guessed).
 */
async function sharesProtectedIdentity(real: string, denied: readonly string[]): Promise<boolean> {
  const info = await Deno.stat(real);
  if (info.nlink === null || info.nlink <= 1 || info.ino === null) return false;
  let seen = 0;
  const walk = async (dir: string): Promise<boolean> => {
    let entries: AsyncIterable<Deno.DirEntry>;
    try {
      entries = Deno.readDir(dir);
      for await (const entry of entries) {
        if (++seen > MAX_PROTECTED_ENTRIES) return true;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory) {
          if (await walk(full)) return true;
        } else if (entry.isFile) {
          const other = await Deno.lstat(full).catch(() => undefined);
          if (other && other.ino === info.ino && other.dev === info.dev) return true;
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
