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

/** The config dir: $DIAZO_CONFIG_DIR, $XDG_CONFIG_HOME/diazo, ~/.config/diazo, %APPDATA%\diazo. */
export function configDirFor(env: EnvGetter, os: OsName): string {
  const explicit = env("DIAZO_CONFIG_DIR");
  if (explicit) return explicit;
  const p = osPath(os);
  const xdg = env("XDG_CONFIG_HOME");
  if (xdg) return p.join(xdg, "diazo");
  if (os === "windows") return p.join(env("APPDATA") ?? p.join(home(env, os), "AppData", "Roaming"), "diazo");
  return p.join(home(env, os), ".config", "diazo");
}

/** The state dir: $DIAZO_STATE_DIR, $XDG_STATE_HOME/diazo, ~/.local/state/diazo, %LOCALAPPDATA%\diazo. */
export function stateDirFor(env: EnvGetter, os: OsName): string {
  const explicit = env("DIAZO_STATE_DIR");
  if (explicit) return explicit;
  const p = osPath(os);
  const xdg = env("XDG_STATE_HOME");
  if (xdg) return p.join(xdg, "diazo");
  if (os === "windows") {
    return p.join(env("LOCALAPPDATA") ?? p.join(home(env, os), "AppData", "Local"), "diazo");
  }
  return p.join(home(env, os), ".local", "state", "diazo");
}

/**
 * The cache dir (what may be lost at any time, e.g. completion values): $DIAZO_CACHE_DIR,
 * $XDG_CACHE_HOME/diazo, ~/.cache/diazo, %LOCALAPPDATA%\diazo\cache.
 */
export function cacheDirFor(env: EnvGetter, os: OsName): string {
  const explicit = env("DIAZO_CACHE_DIR");
  if (explicit) return explicit;
  const p = osPath(os);
  const xdg = env("XDG_CACHE_HOME");
  if (xdg) return p.join(xdg, "diazo");
  if (os === "windows") {
    return p.join(env("LOCALAPPDATA") ?? p.join(home(env, os), "AppData", "Local"), "diazo", "cache");
  }
  return p.join(home(env, os), ".cache", "diazo");
}

/** The config dir of this process. */
export function configDir(): string {
  return configDirFor((k) => Deno.env.get(k), Deno.build.os);
}

/** The state dir of this process. */
export function stateDir(): string {
  return stateDirFor((k) => Deno.env.get(k), Deno.build.os);
}
