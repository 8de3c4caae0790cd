/** The process's standard streams behind a small interface, so tests can capture them. */

/** An output stream: text, or bytes as they are (binary data on stdout, e.g. `generate -o -`). */
export interface Sink {
  write(data: string | Uint8Array): void;
  readonly isTerminal: boolean;
}

/** The three standard streams. */
export interface Io {
  stdout: Sink;
  stderr: Sink;
  stdin: { readonly isTerminal: boolean; readText(): Promise<string>; readLine(): Promise<string | null> };
}

function sink(file: typeof Deno.stdout | typeof Deno.stderr): Sink {
  const enc = new TextEncoder();
  return {
    write(data: string | Uint8Array) {
      const bytes = typeof data === "string" ? enc.encode(data) : data;
      let off = 0;
      while (off < bytes.length) off += file.writeSync(bytes.subarray(off));
    },
    isTerminal: file.isTerminal(),
  };
}

/** A byte stream into `sink` (closing it leaves the sink open), for code that writes to a WritableStream. */
export function writableOf(sink: Sink): WritableStream<Uint8Array> {
  return new WritableStream({ write: (chunk) => sink.write(chunk) });
}

/** The real standard streams of this process. */
export function processIo(): Io {
  return {
    stdout: sink(Deno.stdout),
    stderr: sink(Deno.stderr),
    stdin: {
      isTerminal: Deno.stdin.isTerminal(),
      readText: () => new Response(Deno.stdin.readable).text(),
      readLine,
    },
  };
}

/** Reads one line from stdin without buffering past it; null at end of input. */
async function readLine(): Promise<string | null> {
  const byte = new Uint8Array(1);
  const bytes: number[] = [];
  while (true) {
    const n = await Deno.stdin.read(byte);
    if (n === null || n === 0) return bytes.length ? new TextDecoder().decode(new Uint8Array(bytes)) : null;
    if (byte[0] === 10) return new TextDecoder().decode(new Uint8Array(bytes)).replace(/\r$/, "");
    bytes.push(byte[0]);
  }
}
