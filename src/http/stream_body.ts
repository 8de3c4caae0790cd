/**
 * The one shape of an answer's body read as it comes (`responseType: "stream"` of http/http.ts:
 * `diazo api`, downloads), whichever transport carried it: the raw transport hands back its own
 * reader (raw_transport.ts), which loads none of Deno's streams (a `ReadableStream` alone costs a
 * run about 13 million instructions, ARCHITECTURE.md "Start-up"); a `fetch` answer's stream is read
 * through one here. Loaded only for an answer read as a stream (http.ts, through idle.ts).
 */
/** An answer's body read as it comes. */
export interface BodyReader {
  /** The next bytes, valid until the next read (a buffer may be read into again); undefined at the end. */
  read(): Promise<Uint8Array | undefined>;
  /** Stops reading: the rest is never read and its connection is closed. */
  cancel(reason?: unknown): Promise<void>;
}

/**
 * Bytes read at once from a fetch answer's byte stream, into one reused buffer: 1 MiB ran a 512 MiB
 * download about 10% faster than 256 KiB did (a quarter of the calls of each).
 */
const READ_BYTES = 1024 * 1024;

/** A body with no bytes. */
export function emptyReader(): BodyReader {
  return { read: () => Promise.resolve(undefined), cancel: () => Promise.resolve() };
}

/**
 * A `fetch` body as a BodyReader: a byte stream is read into one reused buffer (a BYOB reader), so
 * a large answer allocates nothing per chunk; any other stream chunk by chunk.
 */
export function streamReader(body: ReadableStream<Uint8Array> | null): BodyReader {
  if (!body) return emptyReader();
  let byob: ReadableStreamBYOBReader | undefined;
  try {
    byob = body.getReader({ mode: "byob" });
  } catch { /* not a byte stream */ }
  const plain = byob ? undefined : body.getReader();
  let buffer = new ArrayBuffer(READ_BYTES);
  return {
    async read() {
      if (!byob) return (await plain!.read()).value;
      const { done, value } = await byob.read(new Uint8Array(buffer));
      if (done || !value) return undefined;
      buffer = value.buffer as ArrayBuffer; // the reader hands the buffer back with the bytes
      return value;
    },
    cancel: async (reason) => void await (byob ?? plain)!.cancel(reason).catch(() => {}),
  };
}

/** A response's body as it comes: the raw transport's own reader (wire.ts), else its stream's. */
export function bodyReader(res: Response): BodyReader {
  return (res as Response & { reader?: BodyReader }).reader ?? streamReader(res.body);
}
