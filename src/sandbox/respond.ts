/**
 * Response builders in the platform's shapes: JSON, empty answers, and the error bodies of its
 * gateway (`developerMessage` + `errorCode`), OSS (`reason`) and OAuth (`error`).
 */

/** Where the gateway's error bodies point for more information. */
export const ERROR_HELP_URL = "https://aps.autodesk.com/en/docs/oauth/v2/developers_guide/error_handling/";

/** A JSON answer. */
export function json(status: number, body: unknown, headers: HeadersInit = {}): Response {
  const h = new Headers(headers);
  h.set("content-type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(body), { status, headers: h });
}

/** An answer without a body. */
export function empty(status: number, headers: HeadersInit = {}): Response {
  return new Response(null, { status, headers });
}

/** A gateway-style error: `{"developerMessage","errorCode","moreInfo"}`. */
export function gatewayError(status: number, developerMessage: string, errorCode: string): Response {
  return json(status, { developerMessage, errorCode, moreInfo: ERROR_HELP_URL });
}

/** An OSS-style error: `{"reason"}`. */
export function reason(status: number, text: string): Response {
  return json(status, { reason: text });
}

/** An OAuth-style error of the token endpoint: `{"error","error_description"}`. */
export function oauthError(status: number, error: string, description: string): Response {
  return json(status, { error, error_description: description });
}

/** The answer for a path no route serves. */
export function notFound(): Response {
  return gatewayError(404, "The requested resource does not exist.", "SANDBOX-404");
}

/** Parses a JSON request body; undefined when it is absent or not JSON. */
export async function readJson(req: Request): Promise<unknown> {
  try {
    const text = await req.text();
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
