/**
 * Response builders in the platform's shapes (JSON, empty answers) and reading JSON bodies; error
 * answers are rendered by `errors.ts`.
 */

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

/** Parses a JSON request body; undefined when it is absent or not JSON. */
export async function readJson(req: Request): Promise<unknown> {
  try {
    const text = await req.text();
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
