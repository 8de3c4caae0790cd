/**
 * The streams of an in-process CLI run: what it writes kept in memory, and a standard input that a
 * test types on while the run waits for it (as a person at a pipe would).
 */
import type { Io } from "../../src/command/io.ts";

/** Standard input that a test types on while the run reads it (a closed one reads as end of input). */
export interface Keyboard {
  stdin: Io["stdin"];
  type(text: string): void;
  close(): void;
}

/**
 * A keyboard; with `text`, that text is typed and the input closed at once. With `terminal` the
 * run sees a terminal on stdin (a person who may be asked), else a pipe.
 */
export function keyboard(text?: string, terminal = false): Keyboard {
  let buf = "";
  let closed = false;
  let wake: (() => void) | undefined;
  const changed = () => new Promise<void>((resolve) => (wake = resolve));
  const kb: Keyboard = {
    stdin: {
      isTerminal: terminal,
      async readText() {
        while (!closed) await changed();
        const all = buf;
        buf = "";
        return all;
      },
      async readLine() {
        while (true) {
          const nl = buf.indexOf("\n");
          if (nl >= 0 || (closed && buf !== "")) {
            const line = nl >= 0 ? buf.slice(0, nl) : buf;
            buf = nl >= 0 ? buf.slice(nl + 1) : "";
            return line.replace(/\r$/, "");
          }
          if (closed) return null;
          await changed();
        }
      },
    },
    type(text) {
      buf += text;
      wake?.();
    },
    close() {
      closed = true;
      wake?.();
    },
  };
  if (text !== undefined) {
    kb.type(text);
    kb.close();
  }
  return kb;
}

/**
 * Streams that keep what is written, reading `stdin`. None of them is a terminal unless `terminal`
 * gives a width: then stdout and stderr are terminals of that many columns (as a person's are).
 */
export function captureIo(
  stdin: string | Keyboard = "",
  onStderr?: (stderr: string) => void,
  terminal?: number,
): { io: Io; stdout(): string; stderr(): string } {
  let out = "";
  let err = "";
  const bytes = new TextDecoder();
  const text = (data: string | Uint8Array) =>
    typeof data === "string" ? data : bytes.decode(data, { stream: true });
  const io: Io = {
    stdout: {
      write: (data) => void (out += text(data)),
      isTerminal: terminal !== undefined,
      columns: terminal,
    },
    stderr: {
      write(data) {
        err += text(data);
        onStderr?.(err);
      },
      isTerminal: terminal !== undefined,
      columns: terminal,
    },
    stdin: (typeof stdin === "string" ? keyboard(stdin) : stdin).stdin,
  };
  return { io, stdout: () => out, stderr: () => err };
}
