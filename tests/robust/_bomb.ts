/**
 * Compression bombs made by hand, in a blink: a gzip or deflate body of zeros whose deflate data is
 * one fixed-Huffman block of matches (length 258, distance 1) repeated, so the body is about 1/159 of
 * what it inflates to and is written by repeating 13 bytes, never by compressing gigabytes.
 */
import { crc32 } from "node:zlib";

/** Bits packed as deflate packs them (least significant first), codes written most significant first. */
function bitWriter() {
  const out: number[] = [];
  let acc = 0;
  let n = 0;
  const bits = (value: number, count: number) => {
    for (let i = 0; i < count; i++) {
      acc |= ((value >> i) & 1) << n;
      if (++n === 8) (out.push(acc), acc = 0, n = 0);
    }
  };
  const code = (value: number, count: number) => {
    for (let i = count - 1; i >= 0; i--) bits((value >> i) & 1, 1);
  };
  return { bits, code, flush: () => (n > 0 && out.push(acc), acc = 0, n = 0, Uint8Array.from(out)), out };
}

/** Length 258 (fixed code 285: 11000101) at distance 1 (distance code 0: 00000). */
const match = (w: ReturnType<typeof bitWriter>) => (w.code(0b11000101, 8), w.code(0, 5));

/** Raw deflate data of at least `size` zeros (a multiple of 2,064 past the first 259). */
function deflateZeros(size: number): { data: Uint8Array; inflated: number } {
  const head = bitWriter();
  head.bits(1, 1); // last block
  head.bits(1, 2); // fixed Huffman
  head.code(0b00110000, 8); // literal 0
  match(head); // 3 + 8 + 13 = 24 bits: byte aligned
  const start = head.flush();
  const unit = bitWriter();
  for (let i = 0; i < 8; i++) match(unit); // 104 bits = 13 bytes, 2,064 zeros
  const one = unit.flush();
  const units = Math.max(0, Math.ceil((size - 259) / 2064));
  const tail = bitWriter();
  tail.code(0, 7); // end of block
  const end = tail.flush();
  const data = new Uint8Array(start.length + units * one.length + end.length);
  data.set(start);
  for (let i = 0; i < units; i++) data.set(one, start.length + i * one.length);
  data.set(end, start.length + units * one.length);
  return { data, inflated: 259 + units * 2064 };
}

/** The CRC-32 of `size` zeros. */
function zerosCrc(size: number): number {
  const block = new Uint8Array(1024 * 1024);
  let crc = 0;
  for (let left = size; left > 0; left -= block.length) {
    crc = crc32(block.subarray(0, Math.min(left, block.length)), crc);
  }
  return crc >>> 0;
}

/** A gzip body of zeros inflating to about `size` bytes (CRC and length right); and what it inflates to. */
export function gzipBomb(size: number): { body: Uint8Array; inflated: number } {
  const { data, inflated } = deflateZeros(size);
  const body = new Uint8Array(10 + data.length + 8);
  body.set([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);
  body.set(data, 10);
  const view = new DataView(body.buffer);
  view.setUint32(10 + data.length, zerosCrc(inflated), true);
  view.setUint32(14 + data.length, inflated >>> 0, true);
  return { body, inflated };
}

/** A `deflate` (zlib) body of zeros inflating to about `size` bytes; and what it inflates to. */
export function deflateBomb(size: number): { body: Uint8Array; inflated: number } {
  const { data, inflated } = deflateZeros(size);
  const body = new Uint8Array(2 + data.length + 4);
  body.set([0x78, 0x01]);
  body.set(data, 2);
  // Adler-32 of zeros: a stays 1, b adds it once per byte.
  new DataView(body.buffer).setUint32(2 + data.length, (((inflated % 65521) << 16) | 1) >>> 0, false);
  return { body, inflated };
}
