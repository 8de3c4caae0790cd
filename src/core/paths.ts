/** Where a remote name (an object key, a derivative's name) may land on disk: always inside a chosen directory. */
import path from "node:path";
import { usageError } from "./errors.ts";

/**
 * The path under `dir` for `name`, keeping its `/`-separated folders; refuses names that would
 * leave `dir`: absolute paths, drive letters, `..` segments, empty names.
 */
export function safeJoin(dir: string, name: string, p: typeof path = path): string {
  const segments = name.split(/[\\/]+/);
  const refuse = (why: string) =>
    usageError(
      `refusing to write '${name}' outside ${dir}: ${why}`,
      "Choose the file name yourself with --out <file>, or rename the object.",
    );
  if (name === "" || segments.every((s) => s === "" || s === ".")) throw refuse("the name is empty");
  if (/^[\\/]/.test(name) || /^[A-Za-z]:/.test(name)) throw refuse("it is an absolute path");
  if (segments.includes("..")) throw refuse("it contains '..'");
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f]/.test(name)) throw refuse("it contains control characters");
  const target = p.join(dir, ...segments.filter((s) => s !== "" && s !== "."));
  const rel = p.relative(dir, target);
  const escapes = rel === ".." || rel.startsWith(`..${p.sep}`) || p.isAbsolute(rel);
  if (rel === "" || escapes) throw refuse("it resolves outside the directory");
  return target;
}
