/**
 * What a handler throws when the platform would refuse a request, and the one place that turns it
 * into that service's error body: the gateway's `{developerMessage, errorCode, moreInfo}`, OAuth's
 * `{error, error_description}`, OSS's `{reason}`, S3's and the CDN's XML, data management's
 * JSON:API `errors[]`, Model Derivative's `{diagnostic}`, Design Automation's bare string, account
 * administration's `{code, message}` and the control API's `{error}`.
 */

import { mdHeaders } from "./derivative/headers.ts";
import { json } from "./respond.ts";

/** Where the gateway's error bodies point for more information. */
export const ERROR_HELP_URL = "https://aps.autodesk.com/en/docs/oauth/v2/developers_guide/error_handling/";

/** Content type of data management answers. */
export const JSON_API_TYPE = "application/vnd.api+json";

/** The fields of an error, by the service whose body shape it takes. */
export type ErrorFields =
  | { service: "gateway"; developerMessage: string; errorCode: string }
  /** The OAuth endpoints send some of these fields, depending on the endpoint and the case. */
  | {
    service: "auth";
    error?: string;
    error_description?: string;
    developerMessage?: string;
    errorCode?: string;
  }
  | { service: "oss"; reason: string }
  | { service: "s3" | "cdn"; code: string; message: string }
  | { service: "dm"; code: string; title: string; detail: string }
  | { service: "derivative" | "da"; diagnostic: string }
  | { service: "admin"; code: string; message: string }
  | { service: "webhooks"; code: string; detail: string }
  | { service: "reality"; code: string; msg: string }
  | { service: "control"; error: string };

/**
 * A refusal in the platform's terms: thrown by handlers, rendered by `renderError`. A class (an
 * `Error`) because it is thrown through any depth of helpers and recognised where it lands.
 */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly fields: ErrorFields,
    /** Extra headers of the answer (`Retry-After`, `Content-Range`, ...). */
    readonly headers: HeadersInit = {},
  ) {
    super(`${status} ${JSON.stringify(fields)}`);
    this.name = "SandboxError";
  }
}

function xmlError(status: number, type: string, code: string, message: string, headers: HeadersInit) {
  const h = new Headers(headers);
  h.set("content-type", type);
  const body =
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  return new Response(body, { status, headers: h });
}

/** The platform's answer for a refusal: the body shape of the service that refused. */
export function renderError(e: SandboxError): Response {
  const { status, fields: f, headers } = e;
  switch (f.service) {
    case "gateway":
      return json(status, {
        developerMessage: f.developerMessage,
        errorCode: f.errorCode,
        moreInfo: ERROR_HELP_URL,
      }, headers);
    case "auth": {
      const { service: _, ...body } = f;
      return json(status, body, headers);
    }
    case "oss":
      return json(status, { reason: f.reason }, headers);
    case "s3":
      return xmlError(status, "application/xml", f.code, f.message, headers);
    case "cdn":
      return xmlError(status, "text/xml", f.code, f.message, headers);
    case "dm": {
      const h = new Headers(headers);
      h.set("content-type", JSON_API_TYPE);
      const error = {
        id: crypto.randomUUID(),
        status: String(status),
        code: f.code,
        title: f.title,
        detail: f.detail,
      };
      return new Response(JSON.stringify({ jsonapi: { version: "1.0" }, errors: [error] }), {
        status,
        headers: h,
      });
    }
    case "derivative":
      return json(status, { diagnostic: f.diagnostic }, {
        ...mdHeaders(),
        ...Object.fromEntries(new Headers(headers)),
      });
    case "da":
      // The platform answers a bare JSON string (recorded traffic of the DA SDK).
      return json(status, f.diagnostic, headers);
    case "admin":
      return json(status, { code: f.code, message: f.message }, headers);
    case "control":
      return json(status, { error: f.error }, headers);
    case "webhooks":
      return json(status, { id: crypto.randomUUID(), status, code: f.code, detail: [f.detail] }, headers);
    case "reality":
      return json(status, { Error: { code: f.code, msg: f.msg } }, headers);
  }
}

/** A gateway refusal (bearer checks, unknown paths). */
export function gatewayError(status: number, developerMessage: string, errorCode: string): SandboxError {
  return new SandboxError(status, { service: "gateway", developerMessage, errorCode });
}

/** An OAuth refusal of the token endpoints: `{"error","error_description"}`. */
export function oauthError(status: number, error: string, description: string): SandboxError {
  return new SandboxError(status, { service: "auth", error, error_description: description });
}

/** An OSS refusal: `{"reason"}`. */
export function ossError(status: number, reason: string, headers: HeadersInit = {}): SandboxError {
  return new SandboxError(status, { service: "oss", reason }, headers);
}

/** An S3 refusal of the emulated storage URLs, in S3's XML. */
export function s3Error(
  status: number,
  code: string,
  message: string,
  headers: HeadersInit = {},
): SandboxError {
  return new SandboxError(status, { service: "s3", code, message }, headers);
}

/** A data management refusal, a JSON:API error document. */
export function dmError(status: number, code: string, title: string, detail: string): SandboxError {
  return new SandboxError(status, { service: "dm", code, title, detail });
}

/** A Model Derivative refusal: `{"diagnostic"}` with the service's headers. */
export function derivativeError(status: number, diagnostic: string): SandboxError {
  return new SandboxError(status, { service: "derivative", diagnostic });
}

/** A Design Automation refusal: a bare JSON string, e.g. `"Cannot modify alias that does not exist."`. */
export function daError(status: number, diagnostic: string): SandboxError {
  return new SandboxError(status, { service: "da", diagnostic });
}

/** An account administration refusal: `{"code","message"}`. */
export function adminError(status: number, code: string, message: string): SandboxError {
  return new SandboxError(status, { service: "admin", code, message });
}

/** A webhooks refusal: `{"id","status","code","detail":[...]}`. */
export function webhooksError(status: number, code: string, detail: string): SandboxError {
  return new SandboxError(status, { service: "webhooks", code, detail });
}

/** A Reality Capture refusal: `{"Error":{"code","msg"}}` (the platform mostly says so with HTTP 200). */
export function realityError(status: number, code: string, msg: string): SandboxError {
  return new SandboxError(status, { service: "reality", code, msg });
}

/** A control API refusal: `{"error"}`. */
export function controlError(status: number, error: string): SandboxError {
  return new SandboxError(status, { service: "control", error });
}

/** The refusal of a path no route serves. */
export function notFound(): SandboxError {
  return gatewayError(404, "The requested resource does not exist.", "SANDBOX-404");
}
