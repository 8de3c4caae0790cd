/**
 * The one bounded reader of answer bodies: every body diazo reads into memory (JSON answers, error
 * bodies, work-item reports, a receiver's answer to `webhook test`) is read up to a cap chosen per
 * use, and what exceeds it is left unread (the connection is closed), never buffered. README.md
 * "Safety" lists the caps.
 */
import { concatBytes } from "../core/bytes.ts";
import type { Deadline, StopSignal } from "../core/deadline.ts";

/**
 * A request's init as the raw transport (raw_transport.ts) takes it: its signal may be a Deadline
 * (core/deadline.ts) as well as an AbortSignal; `maxBodyBytes` caps what is read of a 2xx answer's
 * body and `maxErrorBytes` of any other (default: `maxBodyBytes`), in bytes as decoded; `stream`
 * hands a 2xx answer's body on as it comes instead (http/stream_body.ts).
 */
export type CappedInit = Omit<RequestInit, "signal"> & {
  signal?: StopSignal | null;
  maxBodyBytes?: number;
  maxErrorBytes?: number;
  stream?: boolean;
};

/** The raw transport's `fetch`. */
export type RawFetch = (input: string | URL | Request, init?: CappedInit) => Promise<Response>;

/** `init` as `fetch` takes it (for a request the raw transport leaves to fetch): a deadline as its AbortSignal. */
export function fetchInit(init: CappedInit): RequestInit {
  const { signal, maxBodyBytes: _, maxErrorBytes: _e, stream: _s, ...rest } = init;
  const deadline = signal as Partial<Deadline> | null | undefined;
  return {
    ...rest,
    signal: deadline?.abortSignal ? deadline.abortSignal() : signal as AbortSignal | null | undefined,
  };
}

/** What is read into memory of a JSON, text or bytes answer unless a use says otherwise. */
export const MAX_ANSWER_BYTES = 256 * 1024 * 1024;
/** What is read of an error answer: the platform's are a few hundred bytes; the rest is cut. */
export const MAX_ERROR_BYTES = 64 * 1024;
/** What is read of a work item's report (the rest is cut, with a note and the report's address). */
export const MAX_REPORT_BYTES = 1024 * 1024;

/** A body read up to a cap: its first bytes, and whether more came (then it was cut there). */
export interface CappedBody {
  bytes: Uint8Array;
  cut: boolean;
}

/** Bytes gathered up to a cap, copied into blocks of their own as they come (see `byteSink`). */
export interface ByteSink {
  /** Copies in what fits under the cap; false once more came than the cap (the rest is dropped). */
  push(chunk: Uint8Array): boolean;
  /** The bytes kept so far (at most the cap), joined once. */
  bytes(): Uint8Array;
  /** True once more came than the cap. */
  readonly cut: boolean;
  /** Bytes kept so far. */
  readonly size: number;
}

const BLOCK = 1024 * 1024;

/**
 * A sink of at most `cap` bytes. Each chunk is copied: a chunk of a fetch body is a 4 KiB view of a
 * 64 KiB buffer, so keeping chunks would hold sixteen times their bytes. Memory is what was kept,
 * plus one block, until `bytes()` joins it.
 */
export function byteSink(cap: number): ByteSink {
  const blocks: Uint8Array[] = [];
  let block = new Uint8Array(0);
  let used = 0;
  const sink = {
    cut: false,
    size: 0,
    push(chunk: Uint8Array): boolean {
      if (sink.cut) return false;
      const room = cap - sink.size;
      const take = chunk.subarray(0, Math.min(chunk.length, room));
      for (let at = 0; at < take.length;) {
        if (used === block.length) {
          if (used > 0) blocks.push(block);
          block = new Uint8Array(Math.min(BLOCK, Math.max(cap - sink.size, 1)));
          used = 0;
        }
        const n = Math.min(block.length - used, take.length - at);
        block.set(take.subarray(at, at + n), used);
        used += n;
        at += n;
        sink.size += n;
      }
      if (chunk.length > room) sink.cut = true;
      return !sink.cut;
    },
    bytes: () => concatBytes([...blocks, block.subarray(0, used)]),
  };
  return sink;
}

/**
 * Reads at most `cap` bytes of `body` (a response's stream, decoded bytes as they come); past the
 * cap the stream is cancelled, so the rest is never read (nor decoded), and `cut` is true.
 */
export async function readCapped(body: ReadableStream<Uint8Array> | null, cap: number): Promise<CappedBody> {
  if (!body) return { bytes: new Uint8Array(0), cut: false };
  const sink = byteSink(cap);
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: sink.bytes(), cut: false };
      if (!sink.push(value)) {
        await reader.cancel().catch(() => {});
        return { bytes: sink.bytes(), cut: true };
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Whether a response's body is past `cap`, known before it is read: a raw-transport answer (wire.ts)
 * is already read to the cap it was sent with, and says so; a fetch answer is not known yet.
 */
export function knownCut(res: Response): boolean {
  return (res as Response & { cut?: boolean }).cut === true;
}

/**
 * A response's body read up to `cap`: a raw-transport answer (wire.ts) is already read to the cap
 * it was sent with and says whether it was cut; any other is read from its stream.
 */
export async function readResponseCapped(res: Response, cap: number): Promise<CappedBody> {
  const wire = res as Response & { cut?: boolean };
  if (wire.cut !== undefined) {
    const bytes = await res.bytes();
    if (bytes.length > cap) return { bytes: bytes.subarray(0, cap), cut: true };
    return { bytes, cut: wire.cut };
  }
  return await readCapped(res.body, cap);
}

/** A byte count for a person: "64 KiB", "256 MiB". */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${+(bytes / (1024 * 1024 * 1024)).toFixed(1)} GiB`;
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
