/** Where the Http client may send what: loopback hosts, same-origin checks, Basic credentials. */
import { usageError } from "../core/errors.ts";
import { urlParts } from "./url_text.ts";

/** True for a host name of this machine (the sandbox's), where plain http leaves no wire to read. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** True when `url` is on the origin of `baseUrl` (where the platform token may go). */
export function sameOrigin(url: string, baseUrl: string): boolean {
  try {
    return urlParts(url).origin === urlParts(baseUrl).origin;
  } catch {
    return false;
  }
}

/** The origin of `url` as shown in an error, or a word for an address that is not a URL. */
function shownOrigin(url: string): string {
  try {
    return urlParts(url).origin;
  } catch {
    return "an address that is not a URL";
  }
}

/**
 * The one origin rule of what carries a credential (the client secret, a client id at a token or
 * device endpoint): `url` must be on the platform's origin (`baseUrl`), else a usage error before
 * anything is sent. `what` names what would have been sent, e.g. "the client credentials".
 */
export function checkCredentialOrigin(url: string, baseUrl: string, what: string): void {
  if (sameOrigin(url, baseUrl)) return;
  throw usageError(
    `refusing to send ${what} to ${shownOrigin(url)}: it is not the platform's address ${
      shownOrigin(baseUrl)
    }`,
    "diazo sends credentials only to the platform address (DIAZO_BASE_URL or the profile's base_url); `diazo auth status` shows it.",
  );
}

/**
 * The `Authorization: Basic` value for a client id and secret, for a request to `url` of the platform
 * at `baseUrl`. It carries the secret itself (not a short-lived token): sent only to the platform's
 * origin (`checkCredentialOrigin`), and never in clear text over a network, only over https or to
 * this machine.
 */
export function basicAuth(url: string, baseUrl: string, user: string, password: string): string {
  checkCredentialOrigin(url, baseUrl, "the client secret");
  const { protocol, hostname, host } = urlParts(url);
  if (protocol !== "https:" && !isLoopbackHost(hostname)) {
    throw usageError(
      `refusing to send the client secret over plain http to ${host}`,
      "Use an https base URL, or a loopback address (127.0.0.1, localhost) for the sandbox.",
    );
  }
  return `Basic ${new TextEncoder().encode(`${user}:${password}`).toBase64()}`;
}
