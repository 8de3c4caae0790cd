/**
 * Lines typed on stdin for a prompt (command/io.ts `processIo`): a plain line, and a secret read with
 * echo off. Loaded only when a run asks for one.
 */
import { DiazoError } from "../core/errors.ts";

/** Reads one line from stdin without buffering past it; null at end of input. */
export async function readLine(): Promise<string | null> {
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
export async function readSecret(): Promise<string | null> {
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
