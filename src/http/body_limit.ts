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
 * (core/deadline.ts) as well as an AbortSignal, and `maxBodyBytes` caps what is read of the answer.
 */
export type CappedInit = Omit<RequestInit, "signal"> & { signal?: StopSignal | null; maxBodyBytes?: number };

/** The raw transport's `fetch`. */
export type RawFetch = (input: string | URL | Request, init?: CappedInit) => Promise<Response>;

/** `init` as `fetch` takes it (for a request the raw transport leaves to fetch): a deadline as its AbortSignal. */
export function fetchInit(init: CappedInit): RequestInit {
  const { signal, maxBodyBytes: _, ...rest } = init;
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

/**
 * Reads at most `cap` bytes of `body` (a response's stream); past the cap the stream is cancelled,
 * so the rest is never read, and `cut` is true.
 */
export async function readCapped(body: ReadableStream<Uint8Array> | null, cap: number): Promise<CappedBody> {
  if (!body) return { bytes: new Uint8Array(0), cut: false };
  const parts: Uint8Array[] = [];
  let got = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: concatBytes(parts), cut: false };
      if (got + value.length > cap) {
        parts.push(value.subarray(0, cap - got));
        await reader.cancel().catch(() => {});
        return { bytes: concatBytes(parts), cut: true };
      }
      parts.push(value);
      got += value.length;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * A response's body read up to `cap`: a raw-transport answer (wire.ts) is already read to the cap
 * it was sent with and says whether it was cut; any other is read from its stream.
 */
export async function readResponseCapped(res: Response, cap: number): Promise<CappedBody> {
  const wire = res as Response & { cut?: boolean };
  if (wire.cut !== undefined) {
    const bytes = new Uint8Array(await res.arrayBuffer());
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
