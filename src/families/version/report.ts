/** `diazo version`: diazo's own version, build and runtime facts; `--json` (or `-o json`) for bug reports. */
import { render } from "../../core/output.ts";
import { versionInfo, versionText } from "../../core/version.ts";
import type { CommandDecl } from "../../command/decl.ts";

/** What `version --json` reports. */
export interface VersionReport {
  version: string;
  build_date: string;
  deno: string;
  v8: string;
  typescript: string;
  target: string;
  os: string;
  arch: string;
  /** True for a `deno compile` binary, false when run from source. */
  compiled: boolean;
  executable: string;
  config_dir: string;
  state_dir: string;
}

/** The facts of this build and runtime, with the directories in use. */
export function versionReport(dirs: { configDir: string; stateDir: string }): VersionReport {
  return {
    ...versionInfo(),
    v8: Deno.version.v8,
    typescript: Deno.version.typescript,
    os: Deno.build.os,
    arch: Deno.build.arch,
    compiled: Deno.build.standalone === true,
    executable: Deno.execPath(),
    config_dir: dirs.configDir,
    state_dir: dirs.stateDir,
  };
}

/**
 * The `version` command: the report of diazo's own version (a file's versions are `item version`,
 * families/dm/write_commands.ts).
 */
export const VERSION_REPORT: CommandDecl = {
  name: "version",
  description:
    "print diazo's version, build date, Deno version, target and directories (--json for bug reports); " +
    "a data management file's versions are `item version describe|rename`",
  options: [{ flags: "--json", description: "print JSON (the same as -o json)" }],
  examples: [
    "diazo version",
    "diazo version --json",
    "diazo --version",
  ],
  run: async (ctx, _args, opts: { json?: boolean }) => {
    const report = versionReport(ctx);
    // Human text unless a format is asked for (--json, -o, DIAZO_OUTPUT), whatever the terminal or setting.
    const { output, outputSource, outputError } = ctx.run;
    if (!opts.json && outputSource !== "flag" && outputSource !== "env") {
      ctx.io.stdout.write(
        versionText() +
          `runtime ${report.os} ${report.arch}, ${report.compiled ? "compiled binary" : "from source"}\n` +
          `config ${report.config_dir}\nstate ${report.state_dir}\n`,
      );
      return;
    }
    if (!opts.json && outputError !== undefined) throw outputError;
    const shown = ctx.flags.query
      ? await (await import("../../core/output_query.ts")).applyQuery(report, ctx.flags.query)
      : report;
    ctx.io.stdout.write(await render(shown, { format: opts.json ? "json" : output, color: ctx.color }));
  },
};
