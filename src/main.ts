/** Entry point: argv -> alias expansion -> plugin dispatch -> command tree (DESIGN.md §1). */
import { versionText } from "./core/version.ts";

const args = Deno.args;
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  // Fast path: answers without loading the command tree.
  await Deno.stdout.write(new TextEncoder().encode(versionText()));
} else {
  const { runCli } = await import("./cli/root.ts");
  const code = await runCli(args);
  Deno.exit(code);
}
