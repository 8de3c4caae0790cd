/**
 * The platform address as diazo uses and shows it, read as text (no `URL`: it costs a short command's
 * start-up, ARCHITECTURE.md "Start-up"). A user name and password in it (`http://user:pass@host`) are
 * taken out: diazo signs in with the app's credentials, and the address is printed by `--debug`,
 * `auth status` and the tool server, where a password must not appear.
 */

/** An address split into what diazo keeps and the user name and password it drops. */
export interface PlatformAddress {
  /** The address without user name, password and trailing slashes. */
  address: string;
  /** `user:password` as it was written, when there was one. */
  userinfo?: string;
}

/** `text` without its user name and password (kept apart) and without trailing slashes. */
export function platformAddress(text: string): PlatformAddress {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)([\s\S]*)$/.exec(text);
  const at = m ? m[2].lastIndexOf("@") : -1;
  if (!m || at < 0) return { address: text.replace(/\/+$/, "") };
  return { address: `${m[1]}${m[2].slice(at + 1)}${m[3]}`.replace(/\/+$/, ""), userinfo: m[2].slice(0, at) };
}

/** Why `text` cannot be the platform's address for its shape, or undefined: a query or a fragment would mangle every request path. */
export function addressShapeProblem(text: string): string | undefined {
  if (text.includes("#")) return "it has a fragment (#...)";
  if (text.includes("?")) return "it has a query (?...)";
  return undefined;
}
