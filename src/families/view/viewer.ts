/**
 * The local page of `diazo view`: a loopback HTTP server with two routes, `/` (a page that loads
 * the platform's viewer for one URN) and `/token` (a viewables:read token for that page, renewed by
 * the caller's `token()` as it nears expiry). The token never appears in the page or in a URL.
 */
import type { Urn } from "../../aps/ids.ts";

/** Where the platform serves its viewer (v7). */
export const VIEWER_BASE = "https://developer.api.autodesk.com/modelderivative/v2/viewers/7.*";

/** A token as the viewer's getAccessToken callback wants it. */
export interface ViewerToken {
  access_token: string;
  /** Seconds from now. */
  expires_in: number;
}

/** What the page shows and how it gets its token. */
export interface ViewerServerOptions {
  /** URL-safe base64 URN of the translated design. */
  urn: Urn;
  /** A valid token; called on every `/token` request (the caller caches). */
  token(): Promise<ViewerToken>;
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Viewer API: streamingV2 (svf2, US) or streamingV2_EU (svf2 stored in EMEA). */
  api?: "streamingV2" | "streamingV2_EU";
  /** Title of the page, e.g. the object key. */
  title?: string;
  /** Told of a failure to get a token (the page shows it too). */
  onTokenError?(error: unknown): void;
}

/** A running page server. */
export interface ViewerServer {
  /** e.g. http://127.0.0.1:53124/ */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** JSON for a `<script>` block: `<` escaped so that no text can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The viewer page for a URN (pure). */
export function viewerPage(opts: { urn: string; api?: string; title?: string }): string {
  const title = escapeHtml(`${opts.title ?? opts.urn} - diazo view`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="${VIEWER_BASE}/style.min.css">
<script src="${VIEWER_BASE}/viewer3D.min.js"></script>
<style>
  html, body { margin: 0; height: 100%; overflow: hidden; font-family: sans-serif; }
  #viewer { position: absolute; inset: 0; }
  #status { position: absolute; left: 1em; bottom: 1em; z-index: 10; padding: .5em 1em; background: #fffc; }
  #status:empty { display: none; }
</style>
</head>
<body>
<div id="viewer"></div>
<div id="status">Loading…</div>
<script>
const URN = ${scriptJson(opts.urn)};
const status = (text) => { document.getElementById("status").textContent = text; };
function getAccessToken(callback) {
  fetch("/token", { cache: "no-store" })
    .then((res) => res.ok ? res.json() : res.text().then((t) => { throw new Error(t || res.statusText); }))
    .then((t) => callback(t.access_token, t.expires_in))
    .catch((e) => status("Cannot get a token: " + e.message));
}
if (!window.Autodesk) {
  status("The viewer script did not load: it comes from developer.api.autodesk.com (network needed).");
} else {
  const options = { env: "AutodeskProduction2", api: ${
    scriptJson(opts.api ?? "streamingV2")
  }, getAccessToken };
  Autodesk.Viewing.Initializer(options, () => {
    const viewer = new Autodesk.Viewing.GuiViewer3D(document.getElementById("viewer"));
    viewer.start();
    Autodesk.Viewing.Document.load("urn:" + URN, (doc) => {
      viewer.loadDocumentNode(doc, doc.getRoot().getDefaultGeometry()).then(() => status(""));
    }, (code, message) => status("Cannot load the model (" + code + "): " + (message || "see the console")));
  });
}
</script>
</body>
</html>
`;
}

const SECURITY_HEADERS = {
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
};

/** Starts the page server on 127.0.0.1 (Deno.errors.AddrInUse when the port is taken). */
export function startViewerServer(opts: ViewerServerOptions): Promise<ViewerServer> {
  const page = viewerPage(opts);
  let port = 0;
  const handler = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    // Only this machine's own names: a page elsewhere cannot reach /token through DNS rebinding.
    const host = req.headers.get("host") ?? "";
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
      return new Response("unexpected Host header\n", { status: 403, headers: SECURITY_HEADERS });
    }
    if (req.method === "GET" && url.pathname === "/") {
      return new Response(page, {
        headers: { ...SECURITY_HEADERS, "content-type": "text/html; charset=utf-8" },
      });
    }
    if (req.method === "GET" && url.pathname === "/token") {
      try {
        const t = await opts.token();
        return Response.json(
          { access_token: t.access_token, expires_in: Math.max(0, Math.floor(t.expires_in)) },
          { headers: SECURITY_HEADERS },
        );
      } catch (e) {
        opts.onTokenError?.(e);
        return Response.json({ error: (e as Error)?.message ?? String(e) }, {
          status: 502,
          headers: SECURITY_HEADERS,
        });
      }
    }
    return new Response("not found\n", { status: 404, headers: SECURITY_HEADERS });
  };
  return new Promise((resolve, reject) => {
    try {
      const server = Deno.serve({
        hostname: "127.0.0.1",
        port: opts.port ?? 0,
        onListen: (addr) => {
          port = addr.port;
          resolve({ url: `http://127.0.0.1:${port}/`, port, close: () => server.shutdown() });
        },
      }, handler);
    } catch (e) {
      reject(e);
    }
  });
}
