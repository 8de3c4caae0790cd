/** Where a remote name (an object key, a derivative's name) may land on disk: always inside a chosen directory. */
import path from "node:path";
import { usageError } from "./errors.ts";

/**
 * The path under `dir` for `name`, keeping its `/`-separated folders; refuses names that would
 * leave `dir`: absolute paths, drive letters, `..` segments, empty names. With Windows path rules
 * (`p` is `path.win32`, as the default is on Windows) it also refuses names Windows cannot give a
 * file (see `windowsNameProblem`), as a usage error naming the name and `--out`.
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
  const winProblem = p.sep === "\\" ? segments.map(windowsNameProblem).find(Boolean) : undefined;
  if (winProblem) {
    throw usageError(
      `'${name}' cannot be a file name on Windows: ${winProblem}`,
      "Choose the file name yourself with --out <file>, or rename the object.",
    );
  }
  const target = p.join(dir, ...segments.filter((s) => s !== "" && s !== "."));
  const rel = p.relative(dir, target);
  const escapes = rel === ".." || rel.startsWith(`..${p.sep}`) || p.isAbsolute(rel);
  if (rel === "" || escapes) throw refuse("it resolves outside the directory");
  return target;
}

/** Device names Windows reserves in every folder, with or without an extension. */
const WINDOWS_DEVICES = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;

/**
 * Why one path segment cannot be a file name on Windows, or undefined when it can: the characters
 * `< > : " | ? *`, a reserved device name (`CON`, `nul.txt`, `COM1`...), a trailing dot or space
 * (Windows drops them, so the file would get another name).
 */
export function windowsNameProblem(segment: string): string | undefined {
  const bad = /[<>:"|?*]/.exec(segment);
  if (bad) return `it contains '${bad[0]}'`;
  if (WINDOWS_DEVICES.test(segment.replace(/[. ]+$/, ""))) return `'${segment}' is a reserved device name`;
  if (/[. ]$/.test(segment) && segment !== "." && segment !== "..") {
    return `'${segment}' ends with a dot or a space`;
  }
  return undefined;
}
