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

/**
 * The `Authorization: Basic` value for a client id and secret. It carries the secret itself (not a
 * short-lived token): never sent in clear text over a network, only over https or to this machine.
 */
export function basicAuth(url: string, user: string, password: string): string {
  const { protocol, hostname, host } = urlParts(url);
  if (protocol !== "https:" && !isLoopbackHost(hostname)) {
    throw usageError(
      `refusing to send the client secret over plain http to ${host}`,
      "Use an https base URL, or a loopback address (127.0.0.1, localhost) for the sandbox.",
    );
  }
  return `Basic ${new TextEncoder().encode(`${user}:${password}`).toBase64()}`;
}
