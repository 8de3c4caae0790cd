/**
 * The headers and answer objects of the raw HTTP/1.1 transport (raw_transport.ts), with the parts of
 * the Fetch API's `Headers` and `Response` that diazo reads. Deno loads its own `Headers`, `Request`,
 * `Response` and `fetch` lazily, at about 8 ms of a run's start-up: an answer read off
 * the socket is handed over in these plain objects so that a short command never pays for them.
 */
import type { ByteSink } from "./body_limit.ts";
import type { BodyReader } from "./stream_body.ts";
import { concatBytes } from "../core/bytes.ts";

/** Header pairs with lower-case names, in order received. */
type Pairs = [string, string][];

/** The pairs of any `HeadersInit` (a record, a list of pairs, a `Headers` or one of these). */
export function headerPairs(init: HeadersInit | undefined): Pairs {
  if (init === undefined) return [];
  const list: Iterable<[string, string]> = Symbol.iterator in init
    ? init as Iterable<[string, string]>
    : Object.entries(init);
  const out: Pairs = [];
  for (const [name, value] of list) out.push([String(name).toLowerCase(), String(value).trim()]);
  return out;
}

/** A `Headers` over `pairs`: case-insensitive names, repeated names joined with ", " as `Headers` does. */
export function wireHeaders(pairs: Pairs = []): Headers {
  const own: Pairs = pairs.map(([k, v]) => [k.toLowerCase(), v]);
  const values = (name: string) => own.filter(([k]) => k === name.toLowerCase()).map(([, v]) => v);
  const combined = (): Pairs => {
    const names = [...new Set(own.map(([k]) => k))].sort();
    return names.flatMap((k): Pairs =>
      k === "set-cookie" ? values(k).map((v): [string, string] => [k, v]) : [[k, values(k).join(", ")]]
    );
  };
  const headers = {
    get(name: string) {
      const found = values(name);
      return found.length > 0 ? found.join(", ") : null;
    },
    has: (name: string) => values(name).length > 0,
    getSetCookie: () => values("set-cookie"),
    set(name: string, value: string) {
      headers.delete(name);
      own.push([name.toLowerCase(), String(value).trim()]);
    },
    append: (name: string, value: string) => void own.push([name.toLowerCase(), String(value).trim()]),
    delete(name: string) {
      const lower = name.toLowerCase();
      for (let i = own.length - 1; i >= 0; i--) if (own[i][0] === lower) own.splice(i, 1);
    },
    entries: () => combined()[Symbol.iterator](),
    keys: () => combined().map(([k]) => k)[Symbol.iterator](),
    values: () => combined().map(([, v]) => v)[Symbol.iterator](),
    forEach(fn: (value: string, key: string, parent: Headers) => void) {
      for (const [k, v] of combined()) fn(v, k, headers as unknown as Headers);
    },
    [Symbol.iterator]: () => combined()[Symbol.iterator](),
  };
  return headers as unknown as Headers;
}

/** What an answer read off the socket holds. */
export interface WireAnswer {
  status: number;
  statusText: string;
  headers: Headers;
  /** The body, or the sink it was read into (joined only when it is read); empty with `reader`. */
  body: Uint8Array | ByteSink;
  /** The body as it comes off the connection, for an answer asked for as a stream. */
  reader?: BodyReader;
  url: string;
  /** True when the body was cut at the cap it was read with (body_limit.ts). */
  cut?: boolean;
}

/**
 * A `Response` over an answer read off the socket: status, headers, and its body read once (whole
 * already, or from `reader` as it comes).
 */
export function wireResponse(answer: WireAnswer): Response {
  let used = false;
  const { body: whole, reader } = answer;
  const size = reader ? Infinity : whole instanceof Uint8Array ? whole.length : whole.size;
  const take = async (): Promise<Uint8Array> => {
    if (used) throw new TypeError("Body already consumed.");
    used = true;
    if (reader) return await readAll(reader);
    return await Promise.resolve(whole instanceof Uint8Array ? whole : whole.bytes());
  };
  const res = {
    status: answer.status,
    statusText: answer.statusText,
    ok: answer.status >= 200 && answer.status < 300,
    headers: answer.headers,
    url: answer.url,
    ...(reader ? { reader } : { cut: answer.cut ?? false }),
    redirected: false,
    type: "basic",
    get bodyUsed() {
      return used;
    },
    get body(): ReadableStream<Uint8Array> | null {
      if (size === 0 && !used) return null;
      // Only a caller that asks for a stream pays for Deno's streams.
      if (reader) {
        used = true;
        return new ReadableStream<Uint8Array>({
          pull: async (controller) => {
            const piece = await reader.read();
            if (piece) controller.enqueue(piece.slice());
            else controller.close();
          },
          cancel: (reason) => reader.cancel(reason),
        });
      }
      return new ReadableStream<Uint8Array>({
        start: async (controller) => {
          const bytes = await take();
          if (bytes.length > 0) controller.enqueue(bytes);
          controller.close();
        },
      });
    },
    ...readers(take),
  };
  return res as unknown as Response;
}

/** A body's readers over `take` (which reads it, once). */
function readers(take: () => Promise<Uint8Array>) {
  return {
    bytes: take,
    arrayBuffer: async () => {
      const bytes = await take();
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    },
    text: async () => new TextDecoder().decode(await take()),
    json: async () => JSON.parse(new TextDecoder().decode(await take())),
  };
}

/**
 * Leaves a response's body unread: a raw answer read whole has nothing left (its connection is back
 * in the pool or closed), a streamed one is cancelled, as is a fetch answer's stream.
 */
export async function discardBody(res: Response): Promise<void> {
  const wire = res as Response & { reader?: BodyReader; cut?: boolean };
  if (wire.reader) return await wire.reader.cancel();
  if (wire.cut === undefined) await res.body?.cancel();
}

/** All of a body, joined. */
export async function readAll(body: BodyReader): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (let piece = await body.read(); piece; piece = await body.read()) parts.push(piece.slice());
  return concatBytes(parts);
}
