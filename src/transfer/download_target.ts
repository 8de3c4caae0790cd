/**
 * Where a download may write: under the directory it is given, never outside it, also not through a
 * symlink inside it that resolves elsewhere.
 */
import path from "node:path";
import { usageError } from "../core/errors.ts";
import { safeJoin } from "../core/paths.ts";

/**
 * Where `object download` writes `objectKey`: `out` itself when it names a file, else under `out`
 * (an existing directory or a path ending in a separator) or the working directory — never outside,
 * also not through a symlink inside the directory that resolves elsewhere.
 */
export async function downloadTarget(cwd: string, objectKey: string, out?: string): Promise<string> {
  if (out === undefined) return await confined(cwd, safeJoin(cwd, objectKey), objectKey);
  const abs = path.resolve(cwd, out);
  const isDir = /[\\/]$/.test(out) || (await Deno.stat(abs).then((i) => i.isDirectory, () => false));
  return isDir ? await confined(abs, safeJoin(abs, objectKey), objectKey) : abs;
}

/** `target` with symlinks resolved, refused when that leaves `dir` (also with links resolved). */
async function confined(dir: string, target: string, name: string): Promise<string> {
  const [realDir, realTarget] = await Promise.all([realPathSoFar(dir), realPathSoFar(target)]);
  const rel = path.relative(realDir, realTarget);
  if (rel === "" || rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
    throw usageError(
      `refusing to write '${name}' outside ${dir}: a symlink in it leads to ${realTarget}`,
      "Remove the symlink, or choose the file name yourself with --out <file>.",
    );
  }
  return realTarget;
}

/** The real path of `p`: its deepest existing ancestor with links resolved, and the rest as given. */
async function realPathSoFar(p: string): Promise<string> {
  const rest: string[] = [];
  for (let at = p;; at = path.dirname(at)) {
    try {
      return path.join(await Deno.realPath(at), ...rest);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound) || path.dirname(at) === at) throw e;
      rest.unshift(path.basename(at));
    }
  }
}
