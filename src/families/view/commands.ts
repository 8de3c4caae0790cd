/** `diazo view <urn>`: a translated model in the platform's viewer, from a page served on loopback. */
import { parseUrn } from "../../aps/urn.ts";
import { openBrowser } from "../../platform/browser.ts";
import type { CommandDecl } from "../../command/decl.ts";
import { port } from "../../command/command.ts";
import type { Ctx } from "../../command/context.ts";

/** Waits until Ctrl-C, SIGTERM or the run's --timeout. */
function untilStopped(ctx: Ctx, timeout: number | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      clearTimeout(timer);
      if (Deno.build.os !== "windows") Deno.removeSignalListener("SIGTERM", stop);
      resolve();
    };
    const timer = timeout ? setTimeout(stop, timeout * 1000) : undefined;
    ctx.onInterrupt(stop);
    if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", stop);
  });
}

/** The view family: one command. */
export const VIEW: CommandDecl = {
  name: "view",
  description: "open a translated model in the platform's viewer (a page served on 127.0.0.1 until Ctrl-C)",
  args: [{
    spec: "<urn>",
    description: "base64 URN (as printed by `diazo object upload`) or a raw urn:...",
    parse: parseUrn,
  }],
  options: [
    { flags: "--no-open", description: "print the page's URL without opening a browser" },
    {
      flags: "--port <port>",
      description: "port on 127.0.0.1 (default: any free port)",
      parse: port,
      default: 0,
    },
  ],
  examples: [
    "diazo view dXJuOmFkc2sub2JqZWN0czpvcy5vYmplY3Q6bXktYnVja2V0L2hvdXNlLnJ2dA",
    "diazo view urn:adsk.objects:os.object:my-bucket/house.rvt --no-open --port 8090",
    "diazo view <urn> --no-open --timeout 600",
  ],
  run: async (
    ctx,
    [{ urn, objectKey }]: ReturnType<typeof parseUrn>[],
    opts: { open: boolean; port: number },
  ) => {
    // The viewer's verbs reach node:path, which a declaration must not load.
    const { runViewStart } = await import("./verbs.ts");
    const server = await runViewStart({ urn, title: objectKey, port: opts.port }, ctx);
    ctx.io.stdout.write(server.url + "\n");
    ctx.info(
      `Viewer page for ${objectKey ?? urn} at ${server.url} (the viewer itself loads from the platform)`,
    );
    if (opts.open && !(await openBrowser(server.url))) {
      ctx.warn(`could not open a browser: open ${server.url} yourself`);
    }
    const timeout = ctx.flags.timeout;
    ctx.info(timeout ? `Serving for ${timeout} s; Ctrl-C stops it sooner.` : "Press Ctrl-C to stop.");
    await untilStopped(ctx, timeout);
    await server.close();
    ctx.info("Viewer page stopped.");
  },
};
