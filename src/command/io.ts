/** The process's standard streams behind a small interface, so tests can capture them. */
import { DiazoError } from "../core/errors.ts";

/** An output stream: text, or bytes as they are (binary data on stdout, e.g. `generate --out -`). */
export interface Sink {
  /** Writes all of `data` before it returns and keeps no hold of it (callers reuse their buffers). */
  write(data: string | Uint8Array): void;
  readonly isTerminal: boolean;
  /** The terminal's width in columns, asked each time (a window may be resized); undefined when unknown. */
  readonly columns?: number;
}

/** The three standard streams. */
export interface Io {
  stdout: Sink;
  stderr: Sink;
  stdin: {
    readonly isTerminal: boolean;
    readText(): Promise<string>;
    /** All of stdin as the bytes it carried (no decoding); a stream without it is read as text. */
    readBytes?(): Promise<Uint8Array>;
    readLine(): Promise<string | null>;
    /** One line typed at the terminal without echoing it (a secret); null at end of input. */
    readSecret?(): Promise<string | null>;
  };
}

function sink(file: typeof Deno.stdout | typeof Deno.stderr): Sink {
  const enc = new TextEncoder();
  const isTerminal = file.isTerminal();
  return {
    write(data: string | Uint8Array) {
      const bytes = typeof data === "string" ? enc.encode(data) : data;
      let off = 0;
      while (off < bytes.length) off += file.writeSync(bytes.subarray(off));
    },
    isTerminal,
    get columns() {
      return isTerminal ? terminalColumns() : undefined;
    },
  };
}

/** The width of the process's terminal; undefined where the OS cannot tell (or says 0). */
function terminalColumns(): number | undefined {
  try {
    return Deno.consoleSize().columns || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The width tables are fitted to: `COLUMNS` when it is a positive whole number (a person's
 * override, and the width where the sink is not a terminal), else the terminal's, else none.
 */
export function outputWidth(out: Sink, env: Record<string, string | undefined>): number | undefined {
  const fromEnv = env.COLUMNS?.trim();
  if (fromEnv && /^\d+$/.test(fromEnv) && Number(fromEnv) > 0) return Number(fromEnv);
  return out.columns;
}

/** The real standard streams of this process. */
export function processIo(): Io {
  return {
    stdout: sink(Deno.stdout),
    stderr: sink(Deno.stderr),
    stdin: {
      isTerminal: Deno.stdin.isTerminal(),
      readText: () => new Response(Deno.stdin.readable).text(),
      readBytes: async () => new Uint8Array(await new Response(Deno.stdin.readable).arrayBuffer()),
      readLine,
      readSecret,
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

/**
 * Reads one line from the terminal with echo off (raw mode, restored however it ends): backspace
 * erases, Ctrl-C interrupts (exit 130), Ctrl-D on an empty line is end of input.
 */
async function readSecret(): Promise<string | null> {
  if (!Deno.stdin.isTerminal()) return await readLine();
  const byte = new Uint8Array(1);
  const bytes: number[] = [];
  Deno.stdin.setRaw(true);
  try {
    while (true) {
      const n = await Deno.stdin.read(byte);
      const b = byte[0];
      if (n === null || n === 0 || (b === 4 && bytes.length === 0)) {
        return bytes.length ? decode(bytes) : null;
      }
      if (b === 3) throw new DiazoError("interrupted");
      if (b === 13 || b === 10) return decode(bytes);
      if (b === 127 || b === 8) bytes.pop();
      else bytes.push(b);
    }
  } finally {
    Deno.stdin.setRaw(false);
  }
}

function decode(bytes: number[]): string {
  return new TextDecoder().decode(new Uint8Array(bytes));
}
