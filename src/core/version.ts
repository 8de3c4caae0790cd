/** Version facts of this build; `scripts/build.ts` rewrites BUILD_DATE at compile time. */

/** The diazo version (kept equal to deno.json's "version"). */
export const VERSION = "0.1.0";

/** Build date of a compiled binary; "dev" when run from source. */
export const BUILD_DATE = "dev";

/** Version facts for `--version` and bug reports. */
export function versionInfo(): { version: string; build_date: string; deno: string; target: string } {
  return { version: VERSION, build_date: BUILD_DATE, deno: Deno.version.deno, target: Deno.build.target };
}

/** The human `--version` text. */
export function versionText(): string {
  const v = versionInfo();
  return `diazo ${v.version} (${v.build_date})\ndeno ${v.deno}\ntarget ${v.target}\n`;
}
