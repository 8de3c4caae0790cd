/**
 * Path joining for the modules every command runs (config dir, config store, token store, scope log):
 * `join`, `dirname` and `basename` as node:path's posix and win32 flavours compute them, without
 * importing node:path — the first `node:` import of a run costs it several milliseconds.
 * Modules off the start-up path keep node:path. Win32 device paths (`\\.\`, `\\?\`) are not told
 * apart from UNC ones: no config or state directory is one.
 */

/** The path functions of one OS flavour. */
export interface OsPath {
  /** The separator: `/` or `\`. */
  sep: "/" | "\\";
  /** The parts joined and normalized (`.` and `..` segments resolved, separators collapsed). */
  join(...parts: string[]): string;
  /** The directory part of `p`. */
  dirname(p: string): string;
  /** The last segment of `p`. */
  basename(p: string): string;
}

/** The root of a win32 path (`\\server\share\`, `C:\`, `C:`, `\`) and its length; "" for a relative path. */
function winRoot(p: string): { root: string; absolute: boolean } {
  const unc = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)([\\/]*)/.exec(p);
  if (unc) return { root: `\\\\${unc[1]}\\${unc[2]}\\`, absolute: true };
  const drive = /^([A-Za-z]:)([\\/]?)/.exec(p);
  if (drive) return { root: `${drive[1]}${drive[2] ? "\\" : ""}`, absolute: drive[2] !== "" };
  if (/^[\\/]/.test(p)) return { root: "\\", absolute: true };
  return { root: "", absolute: false };
}

/** Resolves `.` and `..` among `segments` (a `..` above an absolute root is dropped). */
function resolveSegments(segments: string[], absolute: boolean): string[] {
  const out: string[] = [];
  for (const s of segments) {
    if (s === "" || s === ".") continue;
    if (s !== "..") out.push(s);
    else if (out.length > 0 && out.at(-1) !== "..") out.pop();
    else if (!absolute) out.push("..");
  }
  return out;
}

function normalize(p: string, win: boolean): string {
  if (p === "") return ".";
  const sep = win ? "\\" : "/";
  const split = win ? /[\\/]+/ : /\/+/;
  const { root, absolute } = win ? winRoot(p) : { root: p[0] === "/" ? "/" : "", absolute: p[0] === "/" };
  const rest = p.slice(win ? rootLength(p) : root.length);
  let tail = resolveSegments(rest.split(split), absolute).join(sep);
  if (tail === "" && !absolute) tail = ".";
  if (tail !== "" && (win ? /[\\/]$/ : /\/$/).test(rest)) tail += sep;
  // As node:path: a relative path that could read as a drive gets `.\` (a segment ending in a colon,
  // or a first one starting with a drive letter).
  if (win && root === "" && (/[^\\/]:(?:[\\/]|$)/.test(p) || /^[A-Za-z]:/.test(tail))) tail = `.\\${tail}`;
  if (win && root.startsWith("\\\\") && !root.endsWith("\\") && tail !== "") return `${root}\\${tail}`;
  return root + tail;
}

/** How many characters of `p` its win32 root spans (separators after it included). */
function rootLength(p: string): number {
  const m = /^[\\/]{2}[^\\/]+[\\/]+[^\\/]+[\\/]*/.exec(p) ?? /^[A-Za-z]:[\\/]*/.exec(p) ?? /^[\\/]+/.exec(p);
  return m ? m[0].length : 0;
}

/** Where a path's root ends for `dirname` (-1: no root), as node:path's win32 flavour counts it. */
function winRootEnd(p: string): number {
  const isSep = (c: string | undefined) => c === "/" || c === "\\";
  if (/^[A-Za-z]:/.test(p)) return isSep(p[2]) ? 3 : 2;
  if (!isSep(p[0])) return -1;
  if (!isSep(p[1])) return 1;
  const unc = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)/.exec(p);
  if (!unc) return 1;
  return unc[0].length === p.length ? p.length : unc[0].length + 1;
}

function dirname(p: string, win: boolean): string {
  if (p === "") return ".";
  const isSep = (c: string) => c === "/" || (win && c === "\\");
  const rootEnd = win ? winRootEnd(p) : (p[0] === "/" ? 1 : -1);
  if (win && rootEnd === p.length) return p;
  let end = -1;
  let matchedSlash = true;
  for (let i = p.length - 1; i >= Math.max(rootEnd, 1); i--) {
    if (!isSep(p[i])) matchedSlash = false;
    else if (!matchedSlash) {
      end = i;
      break;
    }
  }
  if (end === -1) return rootEnd === -1 ? "." : p.slice(0, rootEnd);
  if (!win && end === 1 && p[0] === "/") return "//";
  return p.slice(0, end);
}

function basename(p: string, win: boolean): string {
  const rootLen = win ? (/^[A-Za-z]:/.test(p) ? 2 : 0) : 0;
  const parts = p.slice(rootLen).split(win ? /[\\/]+/ : /\/+/).filter((s) => s !== "");
  return parts.at(-1) ?? "";
}

function flavour(win: boolean): OsPath {
  return {
    sep: win ? "\\" : "/",
    join: (...parts) => {
      const given = parts.filter((s) => s !== "");
      if (given.length === 0) return ".";
      const joined = given.join(win ? "\\" : "/");
      // As node:path: leading separators collapse to one unless the first part starts a UNC path.
      const unc = win && /^[\\/]{2}[^\\/]/.test(given[0]);
      return normalize(win && !unc ? joined.replace(/^[\\/]{2,}/, "\\") : joined, win);
    },
    dirname: (p) => dirname(p, win),
    basename: (p) => basename(p, win),
  };
}

const POSIX = flavour(false);
const WIN32 = flavour(true);

/** The path functions of `os` (this process's OS by default). */
export function osPath(os: string = Deno.build.os): OsPath {
  return os === "windows" ? WIN32 : POSIX;
}

/**
 * `p` resolved from `dir` as node:path's `resolve` computes it. It loads node:path, so a command's
 * declaration calls it only from the run that reads or writes a named file.
 */
export async function resolveFrom(dir: string, p: string): Promise<string> {
  const { resolve } = await import("node:path");
  return resolve(dir, p);
}
