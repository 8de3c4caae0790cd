/**
 * One hub or project value of a command line (front/names.ts): where it is, how it reads, and what it
 * was given; shared by the resolution every run makes and the name lookup (names_lookup.ts) that only a
 * name brings in.
 */
import type { NameKind } from "../command/decl.ts";
import { isDiazoError } from "../core/errors.ts";

/** One value that names a hub or project: where it is, how it reads, and what it was given. */
export interface Slot {
  kind: NameKind;
  /** `--project` or `<hub>`, as errors name it. */
  label: string;
  parse?: (value: string, previous: unknown) => unknown;
  /** The text typed, or of the default; undefined when there is none. */
  text?: string;
  /** Where a default came from (DIAZO_PROJECT, profile work), for errors. */
  from?: string;
  set(value: unknown): void;
}

/** The id an option's own parser gives, or undefined when `text` is not an id it reads. */
export function asId(slot: Slot, text: string): unknown {
  try {
    return slot.parse ? slot.parse(text, undefined) : text;
  } catch (e) {
    if (isDiazoError(e) && looksLikeId(text)) throw e;
    return undefined;
  }
}

/** Text shaped as an id (`b.`, `a.`, a GUID, an address): its own error, never a name lookup. */
function looksLikeId(text: string): boolean {
  const t = text.trim();
  return /^[ab]\./.test(t) || /^https?:\/\//i.test(t) || /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(t);
}
