/**
 * What every verb of `ops/` is given (ARCHITECTURE.md): an HTTP client for the platform, the resolved
 * settings, the token store, where files live, how to poll, and lines on stderr. The CLI's context
 * and the tool server both provide it; neither commander nor MCP reaches ops/.
 */
import type { FileRoots } from "./file_roots.ts";
import type { Resolved } from "../config/config.ts";
import type { TokenStore, TokenStoreStatus } from "../auth/token_store.ts";
import type { Http } from "../http/http.ts";
import type { PollOptions } from "../http/poll_options.ts";

/** The types of the clients and stores above, for the front ends (which import ops/, not services/ or auth/). */
export type { Http, PollOptions, TokenStore, TokenStoreStatus };
export type { HttpResponse, RequestSpec } from "../http/http.ts";
export type { OpenedTokenStore, StoredToken } from "../auth/token_store.ts";

/** Which HTTP client a verb asks for: `auth: "none"` for endpoints without a bearer token, `mode` for the login. */
export interface HttpChoice {
  auth?: "bearer" | "none";
  mode?: "2-legged" | "3-legged";
}

/** The dependencies of every `run<Verb>` function. */
export interface OpsDeps {
  /** An HTTP client for the platform, authenticated as `choice` asks. */
  http(choice?: HttpChoice): Promise<Http>;
  /** The resolved settings of the profile. */
  settings(): Promise<Resolved>;
  /** The token store, opened on first use. */
  tokenStore(): Promise<TokenStore>;
  /** Which token store is in use and why. */
  tokenStoreStatus(): Promise<TokenStoreStatus>;
  /** Relative paths of arguments are resolved from here. */
  readonly cwd: string;
  /** Upload resume records and logs live here. */
  readonly stateDir: string;
  /** Poll delays and clock of waits (shorter in tests). */
  readonly poll: PollOptions;
  /** A progress or status line on stderr (quiet with --quiet). */
  info(message: string): void;
  /** A warning on stderr. */
  warn(message: string): void;
  /** A debug line on stderr, redacted (only with --debug). */
  debug(message: string): void;
}

/** What the tool server (`serve`) is given: the verbs' dependencies, a line on stderr, and whether --debug is on. */
export interface ToolServerDeps extends OpsDeps {
  /** The local files tools may use (session/file_roots.ts). */
  fileRoots: FileRoots;
  /** A line on stderr. */
  log(line: string): void;
  /** True with --debug. */
  debugEnabled: boolean;
}
