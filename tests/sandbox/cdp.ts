/**
 * A small client of Chromium's DevTools protocol for page tests: starts Debian's headless Chromium
 * with a fresh profile on a free debugging port, opens one page, and speaks the protocol over the
 * browser's WebSocket (no npm dependency). Used by tests/sandbox/dashboard_layout_test.ts.
 */

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Flags that run Chromium headless on this machine, quietly and without talking to the internet. */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--hide-scrollbars",
  "--remote-debugging-port=0",
];

/** An open page: protocol calls go to it, and `close` ends the browser and removes its profile. */
export interface Page {
  // deno-lint-ignore no-explicit-any
  send(method: string, params?: Record<string, unknown>): Promise<any>;
  /** Resolves on the page's next event named `method`. */
  // deno-lint-ignore no-explicit-any
  once(method: string): Promise<any>;
  close(): Promise<void>;
}

/** True when Debian's Chromium is installed here. */
export function hasChromium(): boolean {
  try {
    return Deno.statSync(CHROMIUM_PATH).isFile;
  } catch {
    return false;
  }
}

/** Reads stderr until Chromium prints its DevTools address; keeps draining the rest in the background. */
async function devtoolsUrl(stderr: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stderr.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
    const m = text.match(/DevTools listening on (ws:\/\/\S+)/);
    if (m) {
      (async () => {
        while (!(await reader.read().catch(() => ({ done: true }))).done) { /* drained */ }
      })();
      return m[1];
    }
  }
  throw new Error(`Chromium printed no DevTools address; its stderr:\n${text.slice(-2000)}`);
}

/** Opens the protocol socket and answers calls by id and events by name. */
async function connect(url: string) {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error(`could not open ${url}`));
  });
  let next = 0;
  // deno-lint-ignore no-explicit-any
  const calls = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void; method: string }>();
  // deno-lint-ignore no-explicit-any
  const waiters: { method: string; sessionId?: string; resolve: (v: any) => void }[] = [];
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.id !== undefined) {
      const c = calls.get(msg.id);
      calls.delete(msg.id);
      if (msg.error) c?.reject(new Error(`${c.method}: ${msg.error.message}`));
      else c?.resolve(msg.result);
      return;
    }
    const i = waiters.findIndex((w) => w.method === msg.method && w.sessionId === msg.sessionId);
    if (i >= 0) waiters.splice(i, 1)[0].resolve(msg.params);
  };
  return {
    ws,
    // deno-lint-ignore no-explicit-any
    send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<any> {
      const id = ++next;
      ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      return new Promise((resolve, reject) => calls.set(id, { resolve, reject, method }));
    },
    // deno-lint-ignore no-explicit-any
    once(method: string, sessionId?: string): Promise<any> {
      return new Promise((resolve) => waiters.push({ method, sessionId, resolve }));
    },
  };
}

/** Starts headless Chromium with a fresh profile in a temp dir and opens a blank page. */
export async function openPage(): Promise<Page> {
  const profile = await Deno.makeTempDir({ prefix: "diazo-chromium-" });
  const child = new Deno.Command(CHROMIUM_PATH, {
    args: [...FLAGS, `--user-data-dir=${profile}`, "about:blank"],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stop = async () => {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await child.status;
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  };
  // A browser that prints no address within 30 s is stopped, which ends its stderr and the wait.
  const late = setTimeout(() => child.kill("SIGKILL"), 30_000);
  try {
    const url = await devtoolsUrl(child.stderr).finally(() => clearTimeout(late));
    const browser = await connect(url);
    const { targetId } = await browser.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await browser.send("Target.attachToTarget", { targetId, flatten: true });
    return {
      send: (method, params) => browser.send(method, params, sessionId),
      once: (method) => browser.once(method, sessionId),
      close: async () => {
        await Promise.race([browser.send("Browser.close"), new Promise((r) => setTimeout(r, 2000))])
          .catch(() => {});
        browser.ws.close();
        await stop();
      },
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Evaluates `expression` in the page and returns its value (awaiting a promise). */
// deno-lint-ignore no-explicit-any
export async function evaluate(page: Page, expression: string): Promise<any> {
  const r = await page.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true });
  if (r.exceptionDetails) {
    throw new Error(`in the page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
  }
  return r.result.value;
}

/** Loads `url` at a window of `width` × `height` CSS pixels and waits for its load event. */
export async function load(page: Page, url: string, width: number, height: number): Promise<void> {
  await page.send("Page.enable");
  await page.send("Emulation.setDeviceMetricsOverride", {
    width,
    height,
    deviceScaleFactor: 1,
    mobile: false,
  });
  const loaded = page.once("Page.loadEventFired");
  await page.send("Page.navigate", { url });
  await loaded;
}

/** A PNG of the whole page (beyond the window too) at its current width. */
export async function screenshot(page: Page): Promise<Uint8Array> {
  const m = await page.send("Page.getLayoutMetrics");
  const size = m.cssContentSize ?? m.contentSize;
  const { data } = await page.send("Page.captureScreenshot", {
    format: "png",
    captureBeyondViewport: true,
    clip: { x: 0, y: 0, width: Math.ceil(size.width), height: Math.ceil(size.height), scale: 1 },
  });
  return Uint8Array.fromBase64(data);
}
