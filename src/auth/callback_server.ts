/** The one-shot local server that receives the 3-legged login's redirect. */
import { DiazoError } from "../core/errors.ts";

const DONE_PAGE = `<!doctype html><meta charset="utf-8"><title>diazo</title>
<body style="font-family:sans-serif;margin:3em"><h1>Signed in</h1><p>diazo received the authorization. You can close this tab and return to the terminal.</p></body>`;
const FAIL_PAGE = (why: string) =>
  `<!doctype html><meta charset="utf-8"><title>diazo</title><body style="font-family:sans-serif;margin:3em"><h1>Sign-in failed</h1><p>${
    why.replace(/[<>&"]/g, "")
  }</p><p>You can close this tab; the terminal says what to do next.</p></body>`;

/** Checks a redirect's query against the expected state; returns the code or throws the catalog error. */
export function codeFromRedirect(params: URLSearchParams, expectedState: string): string {
  const error = params.get("error");
  if (error) {
    throw new DiazoError("login_denied", {
      params: { reason: [error, params.get("error_description")].filter(Boolean).join(": ") },
    });
  }
  if (params.get("state") !== expectedState) throw new DiazoError("login_state_mismatch");
  const code = params.get("code");
  if (!code) {
    throw new DiazoError("login_denied", { params: { reason: "no authorization code in the callback" } });
  }
  return code;
}

/** Extracts the code from what a user pasted: the whole redirect URL, its query, or the bare code. */
export function codeFromPaste(text: string, expectedState: string): string {
  const t = text.trim();
  if (/^https?:\/\//i.test(t)) return codeFromRedirect(new URL(t).searchParams, expectedState);
  if (t.includes("code=") || t.includes("error=")) {
    return codeFromRedirect(new URLSearchParams(t.replace(/^\?/, "")), expectedState);
  }
  if (!t) throw new DiazoError("login_denied", { params: { reason: "nothing was pasted" } });
  return t;
}

/** A listening callback server. */
export interface CallbackServer {
  /** Resolves with the code, or rejects with the catalog error (denied, wrong state, timeout). */
  code: Promise<string>;
  close(): Promise<void>;
}

/** Listens on the callback URL's host and port for one redirect. */
export function listenForCallback(
  callbackUrl: string,
  expectedState: string,
  timeoutMs: number,
): CallbackServer {
  const url = new URL(callbackUrl);
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const hostname = url.hostname === "localhost" ? "127.0.0.1" : url.hostname.replace(/^\[|\]$/g, "");
  let settle!: { resolve: (c: string) => void; reject: (e: unknown) => void };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  const ac = new AbortController();
  let server: Deno.HttpServer;
  try {
    server = Deno.serve({ hostname, port, signal: ac.signal, onListen() {} }, (req) => {
      const u = new URL(req.url);
      if (u.pathname !== url.pathname) return new Response("Not found", { status: 404 });
      try {
        const c = codeFromRedirect(u.searchParams, expectedState);
        settle.resolve(c);
        return new Response(DONE_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
      } catch (e) {
        settle.reject(e);
        return new Response(FAIL_PAGE((e as Error).message), {
          status: 400,
          headers: { "content-type": "text/html; charset=utf-8" },
        });
      }
    });
  } catch (e) {
    if (e instanceof Deno.errors.AddrInUse) {
      throw new DiazoError("port_in_use", {
        params: {
          port,
          hint:
            `Free port ${port}, or set SVC_CALLBACK_URL to another port registered for the app; or use --no-browser.`,
        },
      });
    }
    throw e;
  }
  const timer = setTimeout(
    () =>
      settle.reject(new DiazoError("login_timeout", { params: { seconds: Math.round(timeoutMs / 1000) } })),
    timeoutMs,
  );
  code.catch(() => {}).finally(() => clearTimeout(timer));
  return {
    code,
    async close() {
      clearTimeout(timer);
      ac.abort();
      await server.finished;
    },
  };
}
