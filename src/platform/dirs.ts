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

/** Where one kind of dir is: its own variable, the XDG one, and the Windows and home fallbacks. */
interface DirRule {
  /** DIAZO_CONFIG_DIR and the like: used as given. */
  explicit: string;
  /** XDG_CONFIG_HOME and the like: `diazo` below it. */
  xdg: string;
  /** On Windows: the variable, its fallback below the home dir, then the folders below it. */
  windows: { variable: string; fallback: string[]; below: string[] };
  /** Elsewhere: the folders below the home dir. */
  home: string[];
}

function dirFor(rule: DirRule, env: EnvGetter, os: OsName): string {
  const explicit = env(rule.explicit);
  if (explicit) return explicit;
  const p = osPath(os);
  const xdg = env(rule.xdg);
  if (xdg) return p.join(xdg, "diazo");
  if (os === "windows") {
    const w = rule.windows;
    return p.join(env(w.variable) ?? p.join(home(env, os), ...w.fallback), ...w.below);
  }
  return p.join(home(env, os), ...rule.home);
}

/** The config dir: $DIAZO_CONFIG_DIR, $XDG_CONFIG_HOME/diazo, ~/.config/diazo, %APPDATA%\diazo. */
export function configDirFor(env: EnvGetter, os: OsName): string {
  return dirFor(
    {
      explicit: "DIAZO_CONFIG_DIR",
      xdg: "XDG_CONFIG_HOME",
      windows: { variable: "APPDATA", fallback: ["AppData", "Roaming"], below: ["diazo"] },
      home: [".config", "diazo"],
    },
    env,
    os,
  );
}

/** The state dir: $DIAZO_STATE_DIR, $XDG_STATE_HOME/diazo, ~/.local/state/diazo, %LOCALAPPDATA%\diazo. */
export function stateDirFor(env: EnvGetter, os: OsName): string {
  return dirFor(
    {
      explicit: "DIAZO_STATE_DIR",
      xdg: "XDG_STATE_HOME",
      windows: { variable: "LOCALAPPDATA", fallback: ["AppData", "Local"], below: ["diazo"] },
      home: [".local", "state", "diazo"],
    },
    env,
    os,
  );
}

/**
 * The cache dir (what may be lost at any time, e.g. completion values): $DIAZO_CACHE_DIR,
 * $XDG_CACHE_HOME/diazo, ~/.cache/diazo, %LOCALAPPDATA%\diazo\cache.
 */
export function cacheDirFor(env: EnvGetter, os: OsName): string {
  return dirFor(
    {
      explicit: "DIAZO_CACHE_DIR",
      xdg: "XDG_CACHE_HOME",
      windows: { variable: "LOCALAPPDATA", fallback: ["AppData", "Local"], below: ["diazo", "cache"] },
      home: [".cache", "diazo"],
    },
    env,
    os,
  );
}

/** The config dir of this process. */
export function configDir(): string {
  return configDirFor((k) => Deno.env.get(k), Deno.build.os);
}

/** The state dir of this process. */
export function stateDir(): string {
  return stateDirFor((k) => Deno.env.get(k), Deno.build.os);
}
