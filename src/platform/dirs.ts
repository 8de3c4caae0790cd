/** Where diazo keeps configuration and state on each OS (README.md, "Configuration"). */
import { osPath } from "./path.ts";

/** Reads an environment variable. */
export type EnvGetter = (name: string) => string | undefined;

/** The operating systems diazo distinguishes. */
export type OsName = "windows" | "darwin" | "linux" | string;

function home(env: EnvGetter, os: OsName): string {
  const h = os === "windows" ? env("USERPROFILE") ?? env("HOME") : env("HOME") ?? env("USERPROFILE");
  return h ?? ".";
}

/** The variables of one kind of dir, looked up in order: diazo's own, the XDG one, the Windows one. */
type DirVariables = readonly [explicit: string, xdg: string, windows: string];

/** The folders of one kind of dir: below the Windows variable's fallback, below it, below the home dir. */
interface DirFolders {
  fallback: string[];
  windows: string[];
  home: string[];
}

function dirFor(env: EnvGetter, os: OsName, [explicit, xdg, windows]: DirVariables, f: DirFolders): string {
  const given = env(explicit);
  if (given) return given;
  const p = osPath(os);
  const base = env(xdg);
  if (base) return p.join(base, "diazo");
  if (os === "windows") return p.join(env(windows) ?? p.join(home(env, os), ...f.fallback), ...f.windows);
  return p.join(home(env, os), ...f.home);
}

/** The config dir: $DIAZO_CONFIG_DIR, $XDG_CONFIG_HOME/diazo, ~/.config/diazo, %APPDATA%\diazo. */
export function configDirFor(env: EnvGetter, os: OsName): string {
  return dirFor(env, os, ["DIAZO_CONFIG_DIR", "XDG_CONFIG_HOME", "APPDATA"], {
    fallback: ["AppData", "Roaming"],
    windows: ["diazo"],
    home: [".config", "diazo"],
  });
}

/** The state dir: $DIAZO_STATE_DIR, $XDG_STATE_HOME/diazo, ~/.local/state/diazo, %LOCALAPPDATA%\diazo. */
export function stateDirFor(env: EnvGetter, os: OsName): string {
  return dirFor(env, os, ["DIAZO_STATE_DIR", "XDG_STATE_HOME", "LOCALAPPDATA"], {
    fallback: ["AppData", "Local"],
    windows: ["diazo"],
    home: [".local", "state", "diazo"],
  });
}

/**
 * The cache dir (what may be lost at any time, e.g. completion values): $DIAZO_CACHE_DIR,
 * $XDG_CACHE_HOME/diazo, ~/.cache/diazo, %LOCALAPPDATA%\diazo\cache.
 */
export function cacheDirFor(env: EnvGetter, os: OsName): string {
  return dirFor(env, os, ["DIAZO_CACHE_DIR", "XDG_CACHE_HOME", "LOCALAPPDATA"], {
    fallback: ["AppData", "Local"],
    windows: ["diazo", "cache"],
    home: [".cache", "diazo"],
  });
}

/** The config dir of this process. */
export function configDir(): string {
  return configDirFor((k) => Deno.env.get(k), Deno.build.os);
}

/** The state dir of this process. */
export function stateDir(): string {
  return stateDirFor((k) => Deno.env.get(k), Deno.build.os);
}
