/**
 * Entry point: argv -> alias expansion -> plugin dispatch -> command tree (DESIGN.md §1), with an
 * update check in the background whose notice, if it is ready, ends the command's stderr.
 */
import { VERSION, versionText } from "./core/version.ts";

const args = Deno.args;
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  // Fast path: answers without loading the command tree; a closed stdout ends it as in root.ts.
  try {
    await Deno.stdout.write(new TextEncoder().encode(versionText()));
  } catch (e) {
    if (!(e instanceof Deno.errors.BrokenPipe)) throw e;
    Deno.exit(141);
  }
} else if (args[0] === "__complete") {
  // Asked by the shell completion scripts at TAB time; never alias-expanded or dispatched to a plugin.
  const [{ runComplete }, { processIo }] = await Promise.all([
    import("./cli/completions.ts"),
    import("./cli/io.ts"),
  ]);
  Deno.exit(await runComplete(args.slice(1), processIo(), Deno.env.toObject()));
} else {
  const env = Deno.env.toObject();
  const [{ runCli }, { startUpdateCheck }, { stateDir }] = await Promise.all([
    import("./cli/root.ts"),
    import("./services/update_check.ts"),
    import("./platform/dirs.ts"),
  ]);
  const check = startUpdateCheck({
    env,
    stdoutIsTerminal: Deno.stdout.isTerminal(),
    stderrIsTerminal: Deno.stderr.isTerminal(),
    stateDir: stateDir(),
    version: VERSION,
  });
  const code = await runCli(args, undefined, env);
  const notice = check?.finish();
  if (notice) await Deno.stderr.write(new TextEncoder().encode(notice));
  Deno.exit(code);
}
