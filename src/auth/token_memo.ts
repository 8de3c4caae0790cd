/**
 * One process's hold on an access token: reused while fresh, and fetched or renewed once for all
 * the requests that need it at the same moment (a batch of parallel uploads, parallel tool calls),
 * so that neither the token endpoint nor the OS keychain is asked once per request.
 */
import { EXPIRY_MARGIN_MS } from "./two_legged.ts";

/** An access token and when it expires (ms since the epoch). */
export interface HeldToken {
  access_token: string;
  expires_at: number;
}

/** What a memo needs: how to get a token, and how to get another after the platform refused one. */
export interface TokenMemoSource {
  fetch(): Promise<HeldToken>;
  renew(rejected: string): Promise<HeldToken>;
  now?: () => number;
}

/** A token holder shared by every request of one process and login. */
export interface TokenMemo {
  /** The held token while it has more than the expiry margin left; else one fetch shared by all callers. */
  get(): Promise<string>;
  /**
   * After the platform answered 401 to `rejected`: true when a different token is now held — renewed
   * by another caller already, or by one renewal shared by all callers that met the same refusal.
   */
  renew(rejected: string): Promise<boolean>;
}

/** A memo over `source`. */
export function tokenMemo(source: TokenMemoSource): TokenMemo {
  const now = source.now ?? Date.now;
  let held: HeldToken | undefined;
  let pending: Promise<HeldToken> | undefined;
  const fresh = (t: HeldToken | undefined): t is HeldToken => !!t && t.expires_at - EXPIRY_MARGIN_MS > now();
  const shared = (get: () => Promise<HeldToken>): Promise<HeldToken> =>
    pending ??= get().then((t) => (held = t)).finally(() => (pending = undefined));
  return {
    async get() {
      if (fresh(held)) return held.access_token;
      return (await shared(source.fetch)).access_token;
    },
    async renew(rejected) {
      if (pending) {
        const t = await pending.catch(() => undefined);
        if (t && t.access_token !== rejected) return true;
      }
      if (held && held.access_token !== rejected && fresh(held)) return true;
      if (held?.access_token === rejected) held = undefined;
      return (await shared(() => source.renew(rejected))).access_token !== rejected;
    },
  };
}
