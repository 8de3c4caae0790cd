/**
 * Which local files the tool server may touch (issue: a tool could upload diazo's own tokens and then
 * share them): only paths inside the allowed roots (`serve --allow-dir`, default the working
 * directory), never inside diazo's config or state directory, judged after symlinks are resolved.
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
 * The real path of `file` (relative to `cwd`) when a tool may use it; a usage error naming the rule
 * otherwise. A missing file is the catalog's "File not found".
 */
export async function toolFile(file: string, cwd: string, roots: FileRoots): Promise<string> {
  const wanted = path.resolve(cwd, file);
  let real: string;
  try {
    real = await Deno.realPath(wanted);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new DiazoError("file_not_found", { params: { file } });
    throw e;
  }
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
      "Start `diazo serve` with --allow-dir <dir> (repeatable) to let tools use files of another directory.",
    );
  }
  return real;
}
