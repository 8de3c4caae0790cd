/**
 * The one place that decides what a table column is (README "Output"): an identifier that is
 * never cut (keys, URNs, GUIDs, ids, URLs, hashes), free text that may be cut, and how soon the
 * column gives way when the terminal is narrow. Decided from the column's name and its values,
 * with a command's hint (`lowPriority`) on top, so that no command lays out its own table.
 */

/** What a column is, for fitting a table. */
export interface ColumnRole {
  /** Never cut: the column is shown whole or hidden. */
  identifier: boolean;
  /** Kept however narrow the terminal: the table's first identifier and its first name. */
  essential: boolean;
  /** Higher gives way sooner when the terminal is narrow. */
  rank: number;
}

/** Names of identifier columns: `id`, `bucketKey`, `objectId`, `urn`, `hookId`, `client_id`, `callbackUrl`, ... */
const ID_NAME =
  /^(?:id|key|urn|guid|uuid|url|uri|href|sha1|sha256|etag|email)$|(?:Id|ID|Key|Urn|URN|Guid|GUID|Url|URL|Uri|Href)$|_(?:id|key|urn|url)$|^photosceneid$/;

/** Names of free text, cut first: a person reads the start of a title. */
const TEXT_NAME =
  /^(?:name|title|description|displayName|body|detail|details|error|summary|note|purpose|message|question|expansion|command|file|path)$/i;

/** Names of columns that give way before the others: long hashes and bookkeeping. */
const LOW_NAME = /^(?:sha1|sha256|etag|contentType|hasThumbnail|location|createdBy|updatedBy|scopes?)$/;

/** Values that are identifiers whatever the column's name: URNs, URLs, GUIDs, `b.<guid>`. */
const ID_VALUE =
  /^(?:urn:[^\s]+|https?:\/\/[^\s]+|(?:[ab]\.)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** True when a column of this name, holding these cell texts, is an identifier. */
export function isIdentifier(name: string, cells: readonly string[]): boolean {
  if (TEXT_NAME.test(name)) return false;
  if (ID_NAME.test(name)) return true;
  const filled = cells.filter((c) => c !== "");
  return filled.length > 0 && filled.every((c) => ID_VALUE.test(c));
}

/**
 * The roles of a table's columns, in order. Columns give way from the right (commands list the
 * important ones first), the names in LOW_NAME and the command's `lowPriority` before the rest;
 * the first identifier and the first free-text column never give way, unless the command named
 * them in `lowPriority` (an issue's GUID beside its number: `--wide` and `-o json` keep it).
 * @example columnRoles(["type", "name", "id"], [["folders", "Plans", "urn:adsk.wipprod:fs.folder:co.x"]])
 * // type gives way; name is cut if need be; id is kept whole
 */
export function columnRoles(
  names: readonly string[],
  rows: readonly (readonly string[])[],
  lowPriority: readonly string[] = [],
): ColumnRole[] {
  const ids = names.map((n, i) => isIdentifier(n, rows.map((r) => r[i] ?? "")));
  const named = (i: number) => lowPriority.includes(names[i]);
  const firstId = ids.findIndex((id, i) => id && !named(i));
  const firstText = names.findIndex((n, i) => TEXT_NAME.test(n) && !named(i));
  return names.map((name, i) => {
    const low = lowPriority.includes(name) || LOW_NAME.test(name);
    return {
      identifier: ids[i],
      essential: i === firstId || i === firstText || (firstId < 0 && firstText < 0 && i === 0),
      rank: (low ? names.length : 0) + i,
    };
  });
}
