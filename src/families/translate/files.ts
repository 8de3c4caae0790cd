/**
 * Downloading derivatives: a signed URL plus signed cookies from the platform,
 * then the bytes from that URL with the cookies and without the bearer token, streamed to a file.
 */
import { segment } from "../../http/path.ts";
import type { Urn } from "../../aps/ids.ts";
import { safeJoin } from "../../core/paths.ts";
import { writeFileAtomic } from "../../platform/fs_write.ts";
import type { DerivativeFile } from "./manifest.ts";
import { fetchToFile } from "../../transfer/download.ts";
import type { Http } from "../../http/http.ts";
import { DATA_READ } from "../../aps/scope_constants.ts";

/** Where and how to fetch one derivative. */
export interface DerivativeDownload {
  url: string;
  size?: number;
  etag?: string;
  "content-type"?: string;
  expiration?: number;
  /** The signed cookies as one `Cookie` header value ("" when the platform sent none). */
  cookie: string;
}

/** Asks for a derivative's download URL and signed cookies (`.../manifest/<derivativeUrn>/signedcookies`). */
export async function getDerivativeDownload(
  http: Http,
  urn: Urn,
  derivativeUrn: string,
  opts: { region?: string; minutes?: number; signal?: AbortSignal } = {},
): Promise<DerivativeDownload> {
  const res = await http.request<Omit<DerivativeDownload, "cookie">>({
    path: `/modelderivative/v2/designdata/${segment(urn)}/manifest/${segment(derivativeUrn)}/signedcookies`,
    query: { "minutes-expiration": opts.minutes },
    headers: opts.region ? { region: opts.region } : {},
    key: `derivative ${derivativeUrn}`,
    scope: DATA_READ,
    signal: opts.signal,
  });
  return { ...res.data, cookie: cookieHeader(res.headers) };
}

/** Joins the name=value parts of every `Set-Cookie` header into one `Cookie` header value. */
export function cookieHeader(headers: Headers): string {
  const all = typeof headers.getSetCookie === "function" ? headers.getSetCookie() : [];
  return all.map((c) => c.split(";")[0].trim()).filter((c) => c.includes("=")).join("; ");
}

/** A derivative written to disk. */
export interface DownloadedDerivative {
  urn: string;
  file: string;
  size: number;
  sha1: string;
}

/**
 * Downloads one derivative into `dir`, at its manifest path (which never leaves `dir`), through a
 * temp file that is renamed once the size the platform announced is checked.
 */
export async function downloadDerivative(
  http: Http,
  urn: Urn,
  derivative: DerivativeFile,
  opts: {
    dir: string;
    region?: string;
    overwrite?: boolean;
    onProgress?: (done: number, total: number | undefined) => void;
    signal?: AbortSignal;
    debug?: (line: string) => void;
  },
): Promise<DownloadedDerivative> {
  const target = safeJoin(opts.dir, derivative.path);
  const signed = await getDerivativeDownload(http, urn, derivative.urn, opts);
  const got = await fetchToFile(http, {
    urls: [signed.url],
    target,
    expectedSize: typeof signed.size === "number" ? signed.size : undefined,
    // Signed URLs on the platform's own origin would get the bearer by default: fetchToFile sends none.
    headers: signed.cookie ? { cookie: signed.cookie } : undefined,
    label: derivative.path,
    overwrite: opts.overwrite,
    onProgress: opts.onProgress,
    signal: opts.signal,
    debug: opts.debug,
  });
  return { urn: derivative.urn, file: got.file, size: got.size, sha1: got.sha1 };
}

/** The design's thumbnail as PNG bytes (width/height 100, 200 or 400). */
export async function getThumbnail(
  http: Http,
  urn: Urn,
  opts: { region?: string; width?: number; height?: number; signal?: AbortSignal } = {},
): Promise<{ bytes: Uint8Array; contentType: string }> {
  const res = await http.request<Uint8Array>({
    path: `/modelderivative/v2/designdata/${segment(urn)}/thumbnail`,
    query: { width: opts.width, height: opts.height },
    headers: { ...(opts.region ? { region: opts.region } : {}), accept: "image/png" },
    key: `thumbnail of ${urn}`,
    scope: DATA_READ,
    responseType: "bytes",
    signal: opts.signal,
  });
  return { bytes: res.data, contentType: res.headers.get("content-type") ?? "image/png" };
}

/** Writes the design's thumbnail (PNG) to `file` atomically. */
export async function saveThumbnail(
  http: Http,
  urn: Urn,
  file: string,
  opts: { region?: string; width?: number; height?: number; signal?: AbortSignal } = {},
): Promise<{ file: string; size: number; contentType: string }> {
  const { bytes, contentType } = await getThumbnail(http, urn, opts);
  await writeFileAtomic(file, bytes);
  return { file, size: bytes.length, contentType };
}
