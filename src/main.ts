/**
 * Entry point: argv -> alias expansion -> plugin dispatch -> the declared command (ARCHITECTURE.md), with an
 * update check in the background whose notice, once it is ready, ends the command's stderr.
 */
import { VERSION, versionText } from "./core/version.ts";

/** How long the end of a command waits for an update check under way (at most once a day). */
const UPDATE_GRACE_MS = 1000;

const args = Deno.args;
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  // Fast path: answers without loading the command tree; a closed stdout ends it as in root.ts.
  try {
    await Deno.stdout.write(new TextEncoder().encode(versionText()));
  } catch (e) {
    if (!(e instanceof Deno.errors.BrokenPipe)) throw e;
    Deno.exit(141);
  }
  // As every other run ends: without waiting for the isolate's teardown.
  Deno.exit(0);
} else if (args[0] === "__complete") {
  // Asked by the shell completion scripts at TAB time; never alias-expanded or dispatched to a plugin.
  const [{ runComplete }, { processIo }] = await Promise.all([
    import("./front/completions.ts"),
    import("./command/io.ts"),
  ]);
  Deno.exit(await runComplete(args.slice(1), processIo(), Deno.env.toObject()));
} else {
  // The front door and the update check's decision load in one wave; a command loads its own family only.
  const env = Deno.env.toObject();
  // `diazo`, `diazo --help` and `diazo -h` load the program's help only (front/root_help.ts), not the front door.
  const helpOnly = args.length === 0 || (args.length === 1 && (args[0] === "--help" || args[0] === "-h"));
  const [front, { processIo }, { updateCheckDisabled }] = await Promise.all([
    helpOnly ? import("./front/root_help.ts") : import("./front/root.ts"),
    import("./command/io.ts"),
    import("./front/update_notice.ts"),
  ]);
  const where = {
    env,
    stdoutIsTerminal: Deno.stdout.isTerminal(),
    stderrIsTerminal: Deno.stderr.isTerminal(),
  };
  const check = updateCheckDisabled(where) ? undefined : await import("./front/update_check.ts").then(
    async ({ startUpdateCheck }) =>
      startUpdateCheck({
        ...where,
        stateDir: (await import("./platform/dirs.ts")).stateDir(),
        version: VERSION,
      }),
  );
  const io = processIo();
  const cwd = Deno.cwd();
  const code = "runCli" in front ? await front.runCli(args, io, env, cwd) : front.programHelp(args, io);
  const notice = await check?.finishWithin(UPDATE_GRACE_MS);
  if (notice) await Deno.stderr.write(new TextEncoder().encode(notice));
  Deno.exit(code);
}
