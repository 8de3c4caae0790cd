/**
 * Deps of the auth verbs for unit tests: settings resolved from a given environment and an
 * in-memory config, a memory token store, plain HTTP clients and the lines the verbs report.
 */
import { type ConfigFile, resolve } from "../../src/config/config.ts";
import type { TokenStore } from "../../src/auth/token_store.ts";
import { memoryTokenStore } from "../../src/auth/token_memory.ts";
import { createHttp } from "../../src/http/http.ts";
import type { LoginDeps } from "../../src/families/auth/login_shared.ts";

/** Test deps, with what they recorded. */
export interface TestDeps extends LoginDeps {
  /** Lines given to info/warn/tell, in order ("info: ...", "warn: ...", "tell: ..."). */
  lines: string[];
  /** The config file as last saved. */
  saved?: ConfigFile;
  /** How many times the token store was opened. */
  storeOpened: number;
  store: TokenStore;
}

/** Deps over `env` (e.g. DIAZO_BASE_URL of a sandbox, SVC_CLIENT_ID/SECRET); `pasted` answers readLine. */
export function testDeps(
  env: Record<string, string | undefined>,
  opts: { config?: ConfigFile; configDir?: string; pasted?: string | null } = {},
): TestDeps {
  let config: ConfigFile = opts.config ?? { profiles: {}, settings: {} };
  const store = memoryTokenStore();
  const deps: TestDeps = {
    lines: [],
    storeOpened: 0,
    store,
    env,
    cwd: Deno.cwd(),
    configDir: opts.configDir ?? "/nonexistent-config-dir",
    stateDir: "/nonexistent-state-dir",
    poll: {},
    config: () => Promise.resolve(config),
    saveConfig(c) {
      config = c;
      deps.saved = c;
      return Promise.resolve();
    },
    settings: () => Promise.resolve(resolve({ flags: {}, env, dotenv: {}, config })),
    tokenStore() {
      deps.storeOpened++;
      return Promise.resolve(store);
    },
    tokenStoreStatus: () => Promise.resolve({ kind: "memory", location: "memory", reason: "test" }),
    async http() {
      const r = await deps.settings();
      return createHttp({ baseUrl: r.baseUrl.value, timeoutMs: 10_000, maxAttempts: 1, retryBaseMs: 1 });
    },
    info: (m) => void deps.lines.push(`info: ${m}`),
    warn: (m) => void deps.lines.push(`warn: ${m}`),
    debug: () => {},
    tell: (t) => void deps.lines.push(`tell: ${t}`),
    readLine: () => Promise.resolve(opts.pasted ?? null),
    interactive: true,
  };
  return deps;
}
