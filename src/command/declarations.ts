/**
 * The commands the fast start serves (hot.ts), declared once as data without commander: their
 * families build commander's tree from these (command.ts `declareCommand`) and the fast start parses
 * argv from the same declarations, so no option of theirs is listed twice.
 */
import { parseBucketKey } from "../aps/ids.ts";
import { BUCKET_REGIONS, parseBucketRegion } from "../aps/regions.ts";
import { type CommandDecl, positiveNumber } from "./command.ts";

/** `bucket list` (and `oss list`). */
export const BUCKET_LIST: CommandDecl = {
  name: "list",
  aliases: ["ls"],
  description: "list the app's buckets in every region (or one), following every page",
  options: [
    {
      flags: "--region <region>",
      description: `only this region (${BUCKET_REGIONS.join(", ")})`,
      parse: parseBucketRegion,
    },
    { flags: "--limit <n>", description: "stop after n buckets", parse: positiveNumber("--limit", true) },
  ],
  examples: (family) => [
    `diazo ${family} list`,
    `diazo ${family} list --region EMEA -o json --query '[].bucketKey'`,
  ],
};

/** `object list <bucketKey>`. */
export const OBJECT_LIST: CommandDecl = {
  name: "list",
  aliases: ["ls"],
  description: "list a bucket's objects, following every page",
  args: [{ spec: "<bucketKey>", description: "the bucket", parse: parseBucketKey }],
  options: [
    { flags: "--prefix <prefix>", description: "only keys starting with this" },
    { flags: "--limit <n>", description: "stop after n objects", parse: positiveNumber("--limit", true) },
  ],
  examples: () => ["diazo object list myco-models", "diazo object list myco-models --prefix 2026/ -o json"],
};

/** `object download <bucketKey> [objectKeys...]`. */
export const OBJECT_DOWNLOAD: CommandDecl = {
  name: "download",
  aliases: ["get"],
  description:
    "download objects (streamed, SHA-1 checked; never writes outside the target directory); several keys or --prefix sign 25 at a time",
  args: [
    { spec: "<bucketKey>", description: "the bucket", parse: parseBucketKey },
    { spec: "[objectKeys...]", description: "object keys (one, several, or none with --prefix)" },
  ],
  options: [
    {
      flags: "--out <path>",
      description:
        "file, or directory (existing, or ending in /) to write into; default the current directory",
    },
    {
      flags: "--prefix <prefix>",
      description: "also every object whose key starts with this (written under its key)",
    },
    { flags: "--force", description: "overwrite an existing file" },
    {
      flags: "--resume",
      description: "keep the part file when interrupted or failing, to go on from it next time",
    },
  ],
  examples: () => [
    "diazo object download myco-models house.rvt",
    "diazo object download myco-models plans/a.dwg --out ./out/",
    "diazo object download myco-models house.rvt --out - | sha1sum",
    "diazo object download myco-models --prefix 2026/ --out ./out/",
  ],
};

/** `auth status`. */
export const AUTH_STATUS: CommandDecl = {
  name: "status",
  description: "show the credentials in use and the cached tokens of the profile",
  options: [
    {
      flags: "--scopes",
      description: "show only the scopes: the profile's, each token's, and what each scope is for",
    },
    { flags: "--verbose", description: "also show each token's decoded claims" },
  ],
  examples: () => ["diazo auth status", "diazo auth status -o json --query 'tokens[].expires_at'"],
};
