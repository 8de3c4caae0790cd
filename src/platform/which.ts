/**
 * Finding executables on PATH (PATHEXT-aware on Windows) and discovering `diazo-<name>` plugins.
 * The rules are pure functions over an injected file view, so each OS's rules are testable on any OS.
 */
import { osPath } from "./path.ts";

/** The prefix of plugin executables. */
export const PLUGIN_PREFIX = "diazo-";

/** Windows' PATHEXT when the variable is unset. */
const DEFAULT_PATHEXT = ".COM;.EXE;.BAT;.CMD";

/** What the lookup needs to know about the file system. */
export interface PathView {
  /** Names of the regular files in a directory; undefined when it cannot be read. */
  listFiles(dir: string): string[] | undefined;
  /** True when `file` is a regular file that may be run (POSIX: an execute bit; Windows: it exists). */
  isExecutable(file: string): boolean;
}

/** The PATH lookup's inputs: OS, PATH and PATHEXT values, and the file view. */
export interface LookupOptions {
  os: string;
  path: string | undefined;
  pathext?: string;
  view: PathView;
}

/** The directories of a PATH value, in order (`;`-separated on Windows, `:` elsewhere), blanks dropped. */
export function pathDirs(os: string, pathValue: string | undefined): string[] {
  return (pathValue ?? "").split(os === "windows" ? ";" : ":").map((d) => d.trim()).filter(Boolean);
}

/** The executable extensions of PATHEXT on Windows, upper-cased, in order; none elsewhere. */
export function pathExts(os: string, pathext: string | undefined): string[] {
  if (os !== "windows") return [];
  return (pathext || DEFAULT_PATHEXT).split(";").map((e) => e.trim().toUpperCase()).filter((e) =>
    e.startsWith(".")
  );
}

/** The PATHEXT extension `file` ends with (case-insensitively), or undefined. */
export function executableExt(file: string, exts: readonly string[]): string | undefined {
  const upper = file.toUpperCase();
  return exts.find((e) => upper.endsWith(e));
}

/**
 * The files tried for `command`, in order: each PATH directory with each PATHEXT extension on
 * Windows (a name that already has one is tried as it is), the bare name elsewhere. A command with
 * a directory part is not searched on PATH.
 */
export function candidatePaths(command: string, opts: Omit<LookupOptions, "view">): string[] {
  const win = opts.os === "windows";
  const p = osPath(opts.os);
  const exts = pathExts(opts.os, opts.pathext);
  const expand = (base: string) => !win || executableExt(base, exts) ? [base] : exts.map((e) => base + e);
  if (command.includes("/") || (win && command.includes("\\"))) return expand(command);
  return pathDirs(opts.os, opts.path).flatMap((d) => expand(p.join(d, command)));
}

/** The first executable candidate for `command`, or undefined. */
export function findExecutable(command: string, opts: LookupOptions): string | undefined {
  return candidatePaths(command, opts).find((c) => opts.view.isExecutable(c));
}

/**
 * The plugin name of a file name: `diazo-foo` → `foo` on POSIX; on Windows the prefix is matched
 * case-insensitively and a PATHEXT extension is required and removed (`DIAZO-Foo.EXE` → `Foo`).
 */
export function pluginNameOf(fileName: string, os: string, exts: readonly string[]): string | undefined {
  const win = os === "windows";
  const head = fileName.slice(0, PLUGIN_PREFIX.length);
  if (win ? head.toLowerCase() !== PLUGIN_PREFIX : head !== PLUGIN_PREFIX) return undefined;
  let name = fileName.slice(PLUGIN_PREFIX.length);
  if (win) {
    const ext = executableExt(name, exts);
    if (!ext) return undefined;
    name = name.slice(0, -ext.length);
  }
  return name || undefined;
}

/** The key two plugin names are compared by: case-insensitive on Windows. */
export function pluginKey(name: string, os: string): string {
  return os === "windows" ? name.toLowerCase() : name;
}

/** One plugin file found on PATH. */
export interface PathPlugin {
  name: string;
  file: string;
  executable: boolean;
  /** The earlier file of the same name that wins over this one. */
  shadowedBy?: string;
}

/**
 * Every `diazo-*` file on PATH, in lookup order (PATH order; within a directory, PATHEXT order),
 * each marked executable or not and, after the first of a name, shadowed by the one that wins.
 */
export function scanPathPlugins(opts: LookupOptions): PathPlugin[] {
  const exts = pathExts(opts.os, opts.pathext);
  const p = osPath(opts.os);
  const winners = new Map<string, string>();
  const found: PathPlugin[] = [];
  for (const dir of pathDirs(opts.os, opts.path)) {
    const names = opts.view.listFiles(dir) ?? [];
    const here = names.flatMap((fileName) => {
      const name = pluginNameOf(fileName, opts.os, exts);
      if (!name) return [];
      const ext = executableExt(fileName, exts);
      return [{ name, key: pluginKey(name, opts.os), fileName, rank: ext ? exts.indexOf(ext) : 0 }];
    }).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.rank - b.rank));
    for (const { name, fileName } of here) {
      const file = p.join(dir, fileName);
      const executable = opts.view.isExecutable(file);
      const key = pluginKey(name, opts.os);
      const winner = winners.get(key);
      if (winner === undefined && executable) winners.set(key, file);
      found.push({ name, file, executable, ...(winner !== undefined ? { shadowedBy: winner } : {}) });
    }
  }
  return found;
}

/** The real file system as a PathView. */
export function realPathView(os: string = Deno.build.os): PathView {
  return {
    listFiles(dir) {
      try {
        return [...Deno.readDirSync(dir)].filter((e) => e.isFile || e.isSymlink).map((e) => e.name);
      } catch {
        return undefined;
      }
    },
    isExecutable(file) {
      try {
        const st = Deno.statSync(file);
        return st.isFile && (os === "windows" || st.mode === null || (st.mode & 0o111) !== 0);
      } catch {
        return false;
      }
    },
  };
}

/** Lookup options for this process's OS and the given environment (PATH, or Windows' Path). */
export function lookupOptions(
  env: Record<string, string | undefined>,
  os: string = Deno.build.os,
): LookupOptions {
  return { os, path: env.PATH ?? env.Path, pathext: env.PATHEXT, view: realPathView(os) };
}

/** Names (without `diazo-`) of the executable plugins on PATH, first of each name, sorted. */
export function pluginNamesOnPath(
  env: Record<string, string | undefined>,
  os: string = Deno.build.os,
): Promise<string[]> {
  const names = scanPathPlugins(lookupOptions(env, os))
    .filter((p) => p.executable && !p.shadowedBy)
    .map((p) => p.name);
  return Promise.resolve([...new Set(names)].sort());
}
