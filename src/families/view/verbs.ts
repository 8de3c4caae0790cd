/**
 * The `view` verb: a translated model in the platform's viewer, from a page served on loopback. The
 * page's token is the app's, narrowed to `viewables:read`; the caller decides how long it serves.
 */
import { profileScopes, twoLeggedToken } from "../../auth/two_legged.ts";
import type { Urn } from "../../aps/ids.ts";
import { DiazoError, usageError } from "../../core/errors.ts";
import { getManifest, type Manifest } from "../translate/api.ts";
import type { Http } from "../../http/http.ts";
import { startViewerServer, type ViewerServer, type ViewerToken } from "./viewer.ts";
import type { OpsDeps } from "../../session/deps.ts";

export type { ViewerServer } from "./viewer.ts";

/** The only scope the viewer's token carries: it reaches the page, so it may read viewables and nothing else. */
export const VIEWER_SCOPES = ["viewables:read"] as const;

/** An Http that sends `token` as the bearer on every request (deps.http() would use the profile's scopes). */
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

/** Warns about a manifest that the viewer cannot show (yet); a failed translation is an error. */
function checkManifest(deps: OpsDeps, manifest: Manifest, urn: Urn): void {
  if (manifest.status === "failed" || manifest.status === "timeout") {
    throw new DiazoError("translation_failed");
  }
  if (manifest.status !== "success") {
    deps.warn(
      `the translation is ${
        manifest.progress || manifest.status
      }; the viewer shows the model once it is done`,
    );
  }
  const viewable = (manifest.derivatives ?? []).some((d) =>
    d.outputType === "svf2" || d.outputType === "svf"
  );
  if (manifest.status === "success" && !viewable) {
    deps.warn(`no svf2 or svf derivative to view: \`diazo translate start ${urn} --format svf2 --wait\``);
  }
}

/**
 * `view`: checks that the profile may give the page a viewables:read token and that the design is
 * translated, then starts the page server on 127.0.0.1 (`port` 0: any free port). The caller
 * closes it.
 */
export async function runViewStart(
  opts: { urn: Urn; title?: string; port: number },
  deps: OpsDeps,
): Promise<ViewerServer> {
  const resolved = await deps.settings();
  // The page's token is the app's: it may carry only what the profile grants the app.
  if (!profileScopes(resolved).includes(VIEWER_SCOPES[0])) {
    throw new DiazoError("insufficient_scope", { params: { scope: VIEWER_SCOPES[0] } });
  }
  const store = await deps.tokenStore();
  const authHttp = await deps.http({ auth: "none" });
  const viewerToken = async (): Promise<ViewerToken> => {
    const { token } = await twoLeggedToken({ resolved, store, authHttp, stateDir: deps.stateDir }, {
      scopes: VIEWER_SCOPES,
    });
    return { access_token: token.access_token, expires_in: (token.expires_at - Date.now()) / 1000 };
  };
  const first = await viewerToken();
  let manifest: Manifest;
  try {
    manifest = await getManifest(withBearer(authHttp, first.access_token), opts.urn);
  } catch (e) {
    if (e instanceof DiazoError && e.status === 404) {
      throw new DiazoError("not_translated", { params: { urn: opts.urn }, status: 404, cause: e });
    }
    throw e;
  }
  checkManifest(deps, manifest, opts.urn);
  try {
    return await startViewerServer({
      urn: opts.urn,
      token: viewerToken,
      port: opts.port,
      api: manifest.region === "EMEA" ? "streamingV2_EU" : "streamingV2",
      title: opts.title,
      onTokenError: (e) => deps.warn(`the page asked for a token and got an error: ${(e as Error).message}`),
    });
  } catch (e) {
    if (e instanceof Deno.errors.AddrInUse) {
      throw usageError(`port ${opts.port} is already in use`, "Pick another with --port, or leave it out.");
    }
    throw e;
  }
}
