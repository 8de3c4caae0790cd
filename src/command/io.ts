/** The process's standard streams behind a small interface, so tests can capture them. */

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
      // Prompts are rare: their readers load when one is asked (command/stdin_line.ts).
      readLine: async () => (await import("./stdin_line.ts")).readLine(),
      readSecret: async () => (await import("./stdin_line.ts")).readSecret(),
    },
  };
}
