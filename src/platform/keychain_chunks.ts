/**
 * Secrets longer than one keychain item can hold, kept as several items: the first under the
 * account itself (with a header naming the count), the others under `<account>#2`, `#3`, ...
 */
import type { Keychain } from "./keychain_types.ts";

const MARK = "\u0001diazo-parts:";

/** Splits `s` into pieces of at most `maxBytes` UTF-8 bytes, never inside a character. */
export function splitUtf8(s: string, maxBytes: number): string[] {
  const enc = new TextEncoder();
  const out: string[] = [];
  let cur = "";
  let size = 0;
  for (const ch of s) {
    const n = enc.encode(ch).length;
    if (size + n > maxBytes && cur !== "") {
      out.push(cur);
      cur = "";
      size = 0;
    }
    cur += ch;
    size += n;
  }
  out.push(cur);
  return out;
}

/** The account that holds part `i` (counting from 1) of a secret. */
export function partAccount(account: string, i: number): string {
  return i === 1 ? account : `${account}#${i}`;
}

/** The first item of a split secret: the count of parts, then the first part. */
export function partsHead(count: number, first: string): string {
  return `${MARK}${count}\n${first}`;
}

/** The count and first part of a head item, or undefined for an item that is not split. */
export function parsePartsHead(head: string): { count: number; first: string } | undefined {
  if (!head.startsWith(MARK)) return undefined;
  const nl = head.indexOf("\n", MARK.length);
  const count = Number(head.slice(MARK.length, nl));
  if (nl < 0 || !Number.isInteger(count) || count < 1) return { count: 0, first: "" };
  return { count, first: head.slice(nl + 1) };
}

/** A keychain whose secrets may be longer than `inner` holds in one item (`maxBytes` per part). */
export function chunkedKeychain(inner: Keychain, maxBytes: number): Keychain {
  const countOf = (head: string | null) => head === null ? 0 : Math.max(1, parsePartsHead(head)?.count ?? 1);
  return {
    name: inner.name,
    async get(service, account) {
      const head = await inner.get(service, account);
      const parsed = head === null ? undefined : parsePartsHead(head);
      if (!parsed) return head;
      if (parsed.count === 0) return null; // a damaged head: as good as absent
      let secret = parsed.first;
      for (let i = 2; i <= parsed.count; i++) {
        const part = await inner.get(service, partAccount(account, i));
        if (part === null) return null; // a write was interrupted
        secret += part;
      }
      return secret;
    },
    async set(service, account, secret) {
      const before = countOf(await inner.get(service, account));
      const fits = new TextEncoder().encode(secret).length <= maxBytes && !secret.startsWith(MARK);
      const parts = fits ? [secret] : splitUtf8(secret, maxBytes);
      // The tail first, the head last: a reader never finds a head whose parts are not yet there.
      for (let i = parts.length; i >= 2; i--) await inner.set(service, partAccount(account, i), parts[i - 1]);
      await inner.set(service, account, fits ? secret : partsHead(parts.length, parts[0]));
      for (let i = parts.length + 1; i <= before; i++) await inner.delete(service, partAccount(account, i));
    },
    async delete(service, account) {
      const count = countOf(await inner.get(service, account));
      for (let i = 2; i <= count; i++) await inner.delete(service, partAccount(account, i));
      return count > 0 && await inner.delete(service, account);
    },
  };
}
