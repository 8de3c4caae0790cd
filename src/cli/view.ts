/** `diazo view <urn>`: a translated model in the platform's viewer, from a page served on loopback. */
import { DiazoError, usageError } from "../core/errors.ts";
import { parseUrn } from "../aps/urn.ts";
import { openBrowser } from "../platform/browser.ts";
import { getManifest, type Manifest } from "../services/derivative.ts";
import type { Http } from "../services/http.ts";
import { startViewerServer, type ViewerToken } from "../services/viewer.ts";
import { appScopes, appToken } from "../ops/auth.ts";
import { type AnyCommand, type ContextFactory, examples } from "./command.ts";
import type { Ctx } from "./context.ts";

/** The only scope the viewer's token carries: it reaches the page, so it may read viewables and nothing else. */
export const VIEWER_SCOPES = ["viewables:read"] as const;

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 65535) {
    throw usageError(
      `--port must be 0-65535, got '${value}'`,
      "Use --port 0 (the default) for any free port.",
    );
  }
  return n;
}

/** An Http that sends `token` as the bearer on every request (ctx.http() would use the profile's scopes). */
function withBearer(http: Http, token: string): Http {
  return {
    baseUrl: http.baseUrl,
    request: (spec) =>
      http.request({
        ...spec,
        scope: VIEWER_SCOPES.join(" "),
        headers: { ...spec.headers, authorization: `Bearer ${token}` },
      }),
  };
}

function notTranslated(urn: string, cause: unknown): DiazoError {
  return new DiazoError("not_translated", { params: { urn }, status: 404, cause });
}

/** Warns about a manifest that the viewer cannot show (yet); a failed translation is an error. */
function checkManifest(ctx: Ctx, manifest: Manifest, urn: string): void {
  if (manifest.status === "failed" || manifest.status === "timeout") {
    throw new DiazoError("translation_failed");
  }
  if (manifest.status !== "success") {
    ctx.warn(
      `the translation is ${
        manifest.progress || manifest.status
      }; the viewer shows the model once it is done`,
    );
  }
  const viewable = (manifest.derivatives ?? []).some((d) =>
    d.outputType === "svf2" || d.outputType === "svf"
  );
  if (manifest.status === "success" && !viewable) {
    ctx.warn(`no svf2 or svf derivative to view: \`diazo translate start ${urn} --format svf2 --wait\``);
  }
}

/** Registers the view command. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const cmd = program.command("view")
    .description("open a translated model in the platform's viewer (a page served on 127.0.0.1 until Ctrl-C)")
    .argument("<urn>", "base64 URN (as printed by `diazo object upload`) or a raw urn:...")
    .option("--no-open", "print the page's URL without opening a browser")
    .option("--port <port>", "port on 127.0.0.1 (default: any free port)", port, 0)
    .action(async (input, opts, command) => {
      const ctx = makeCtx(command);
      const { urn, objectKey } = parseUrn(input);
      // The page's token is the app's: it may carry only what the profile grants the app.
      if (!(await appScopes(ctx)).includes("viewables:read")) {
        throw new DiazoError("insufficient_scope", { params: { scope: "viewables:read" } });
      }
      const authHttp = await ctx.http({ auth: "none" });
      const viewerToken = async (): Promise<ViewerToken> => {
        const token = await appToken(ctx, { scopes: VIEWER_SCOPES });
        return { access_token: token.access_token, expires_in: (token.expires_at - Date.now()) / 1000 };
      };
      const first = await viewerToken();
      let manifest: Manifest;
      try {
        manifest = await getManifest(withBearer(authHttp, first.access_token), urn);
      } catch (e) {
        if (e instanceof DiazoError && e.status === 404) throw notTranslated(urn, e);
        throw e;
      }
      checkManifest(ctx, manifest, urn);
      let server;
      try {
        server = await startViewerServer({
          urn,
          token: viewerToken,
          port: opts.port,
          api: manifest.region === "EMEA" ? "streamingV2_EU" : "streamingV2",
          title: objectKey,
          onTokenError: (e) =>
            ctx.warn(`the page asked for a token and got an error: ${(e as Error).message}`),
        });
      } catch (e) {
        if (e instanceof Deno.errors.AddrInUse) {
          throw usageError(
            `port ${opts.port} is already in use`,
            "Pick another with --port, or leave it out.",
          );
        }
        throw e;
      }
      ctx.io.stdout.write(server.url + "\n");
      ctx.info(
        `Viewer page for ${objectKey ?? urn} at ${server.url} (the viewer itself loads from the platform)`,
      );
      if (opts.open && !(await openBrowser(server.url))) {
        ctx.warn(`could not open a browser: open ${server.url} yourself`);
      }
      const timeout = ctx.flags.timeout;
      ctx.info(timeout ? `Serving for ${timeout} s; Ctrl-C stops it sooner.` : "Press Ctrl-C to stop.");
      await new Promise<void>((resolve) => {
        const stop = () => {
          clearTimeout(timer);
          if (Deno.build.os !== "windows") Deno.removeSignalListener("SIGTERM", stop);
          resolve();
        };
        const timer = timeout ? setTimeout(stop, timeout * 1000) : undefined;
        ctx.onInterrupt(stop);
        if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", stop);
      });
      await server.close();
      ctx.info("Viewer page stopped.");
    });
  examples(cmd, [
    "diazo view dXJuOmFkc2sub2JqZWN0czpvcy5vYmplY3Q6bXktYnVja2V0L2hvdXNlLnJ2dA",
    "diazo view urn:adsk.objects:os.object:my-bucket/house.rvt --no-open --port 8090",
    "diazo view <urn> --no-open --timeout 600",
  ]);
}
