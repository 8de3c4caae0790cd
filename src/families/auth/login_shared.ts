/** What every flow of `auth login` shares: its options, what it needs, what it returns. */
import { DEFAULT_3L_SCOPES } from "../../auth/three_legged.ts";
import type { StoredToken } from "../../auth/token_store.ts";
import type { ProfileDeps } from "./verbs.ts";
import { checkedScopes } from "./scopes.ts";

/** Options of `auth login`. */
export interface LoginOptions {
  twoLegged?: boolean;
  threeLegged?: boolean;
  scopes?: string;
  browser?: boolean;
  device?: boolean;
  serviceAccount?: string;
  keyFile?: string;
  keyId?: string;
  /** How long a browser login waits for the callback (--timeout), in seconds. */
  timeoutSec?: number;
}

/** What a login needs beyond the profile: a way to tell the user what to do and read what they paste. */
export interface LoginDeps extends ProfileDeps {
  /** Text for the user on stderr, also with --quiet: the URL to open, the code to enter. */
  tell(text: string): void;
  /** One line the user pastes, or null at the end of input. */
  readLine(): Promise<string | null>;
  /** Whether a person may be asked (a terminal on stdin, no CI, no --non-interactive). */
  readonly interactive: boolean;
}

/** The record of a login: the mode, profile, what identifies the login, scopes and expiry. */
export interface LoginRecord {
  mode: string;
  profile: string;
  client_id?: string;
  service_account?: string;
  scopes: string[];
  expires_at: string;
}

/** What `auth login` returns: the record, and the line that confirms it. */
export interface LoginResult {
  login: LoginRecord;
  action: string;
}

/** The result of a login from its token. */
export function loginResult(
  token: StoredToken,
  profile: string,
  extra: { client_id?: string; service_account?: string },
  action: string,
): LoginResult {
  return {
    login: {
      mode: token.mode,
      profile,
      ...extra,
      scopes: token.scopes,
      expires_at: new Date(token.expires_at).toISOString(),
    },
    action,
  };
}

/** The scopes of a user login: --scopes checked for 3-legged tokens, else the default set. */
export function userScopes(opts: LoginOptions): string[] {
  return opts.scopes ? checkedScopes(opts.scopes, "3-legged") : DEFAULT_3L_SCOPES;
}
