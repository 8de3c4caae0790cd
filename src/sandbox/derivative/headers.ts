/**
 * The `x-ads-*` headers every Model Derivative answer carries, errors included.
 */

const STARTED = new Date();

/** The service's common response headers. */
export function mdHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    "x-ads-app-identifier": "platform-viewing-sandbox",
    "x-ads-startup-time": STARTED.toUTCString(),
    "x-ads-duration": "1",
    ...extra,
  };
}
