/**
 * What handlers are given: the sandbox's parts (state, keys, faults, request log) and the request's
 * own facts (base URL, path parameters, verified token).
 */

import type { FaultStore } from "./faults.ts";
import type { SigningKey } from "./jwt.ts";
import type { RequestLog } from "./request_log.ts";
import type { SandboxState } from "./state.ts";
import type { AccessClaims } from "./tokens.ts";

/** The parts of one running sandbox. */
export interface SandboxContext {
  state: SandboxState;
  /** Signing keys; the first signs new tokens, all verify. */
  keys: SigningKey[];
  faults: FaultStore;
  requests: RequestLog;
  /** Where object data lives on disk. */
  dataDir: string;
}

/** One request as a handler sees it. */
export interface RequestContext {
  sandbox: SandboxContext;
  url: URL;
  /** Origin the client used to reach the sandbox, e.g. `http://127.0.0.1:8787`; for absolute links. */
  baseUrl: string;
  /** Decoded path parameters of the matched route. */
  params: Record<string, string>;
  /** The verified bearer token, on routes that require one. */
  token?: AccessClaims;
  /** The calling app, when known, for the request log. */
  clientId?: string;
  /** The grant type of a token-endpoint call, for the request log. */
  grantType?: string;
}
