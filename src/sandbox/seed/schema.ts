/**
 * The JSON Schema of a sandbox world file (`diazo sandbox --seed world.yaml`), published as
 * schemas/world.schema.json. validate.ts checks a file against it with positions; apply.ts builds the
 * world it declares.
 */

import { ISSUE_STATUSES } from "../../aps/issues.ts";

/** Where the repository publishes the schema. */
export const WORLD_SCHEMA_PATH = "schemas/world.schema.json";

const id = (description: string) => ({ type: "string", minLength: 1, description });
/** The schema of a `file` field: validate.ts also checks that the file is there. */
export const FILE = {
  type: "string",
  minLength: 1,
  description: "a local file whose bytes the sandbox serves; relative to the world file",
};

/** JSON Schema (draft 2020-12) of a world file. */
export const WORLD_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "diazo sandbox world",
  description:
    "What a sandbox started with `diazo sandbox --seed <file>` holds instead of its built-in world. " +
    "Ids given are kept; ids left out are derived from names, the same in every run.",
  type: "object",
  additionalProperties: false,
  properties: {
    $schema: { type: "string", description: "the schema this file follows (for editors)" },
    version: { const: 1, description: "the file format version (1)" },
    apps: { type: "array", items: { $ref: "#/$defs/app" }, description: "apps besides the well-known one" },
    users: {
      type: "array",
      items: { $ref: "#/$defs/user" },
      description: "account members besides the sandbox user (who signs in to 3-legged logins)",
    },
    hubs: { type: "array", items: { $ref: "#/$defs/hub" }, description: "ACC or BIM 360 accounts" },
    buckets: { type: "array", items: { $ref: "#/$defs/bucket" }, description: "OSS buckets and objects" },
  },
  $defs: {
    app: {
      type: "object",
      additionalProperties: false,
      required: ["client_id", "client_secret"],
      properties: {
        client_id: id("the app's client id"),
        client_secret: id("the app's client secret"),
        callback_url: { type: "string", format: "uri", description: "the app's registered callback URL" },
        scopes: {
          type: "array",
          items: { type: "string", minLength: 1 },
          description: "the only scopes the app may be granted (default: any the platform grants)",
        },
      },
    },
    user: {
      type: "object",
      additionalProperties: false,
      required: ["email"],
      properties: {
        id: id("the user's Autodesk id (uid)"),
        email: { type: "string", minLength: 3 },
        first_name: { type: "string" },
        last_name: { type: "string" },
        job_title: { type: "string" },
      },
    },
    hub: {
      type: "object",
      additionalProperties: false,
      required: ["name"],
      properties: {
        id: { type: "string", pattern: "^b\\.[0-9a-f-]{36}$", description: "the hub id: b.<account GUID>" },
        name: { type: "string", minLength: 1 },
        type: { enum: ["ACC", "BIM360"], default: "ACC", description: "the account's platform" },
        region: { enum: ["US", "EMEA", "AUS"], default: "US" },
        projects: { type: "array", items: { $ref: "#/$defs/project" } },
      },
    },
    project: {
      type: "object",
      additionalProperties: false,
      required: ["name"],
      properties: {
        id: {
          type: "string",
          pattern: "^b\\.[0-9a-f-]{36}$",
          description: "the project id: b.<project GUID>",
        },
        name: { type: "string", minLength: 1 },
        folders: { type: "array", items: { $ref: "#/$defs/folder" }, description: "the top folders" },
        issues: { type: "array", items: { $ref: "#/$defs/issue" } },
      },
    },
    folder: {
      type: "object",
      additionalProperties: false,
      required: ["name"],
      properties: {
        id: {
          type: "string",
          pattern: "^urn:adsk\\.wipprod:fs\\.folder:co\\.",
          description: "the folder URN",
        },
        name: { type: "string", minLength: 1 },
        folders: { type: "array", items: { $ref: "#/$defs/folder" } },
        items: { type: "array", items: { $ref: "#/$defs/item" } },
      },
    },
    item: {
      type: "object",
      additionalProperties: false,
      required: ["name", "file"],
      properties: {
        id: {
          type: "string",
          pattern: "^urn:adsk\\.wipprod:dm\\.lineage:",
          description: "the item (lineage) URN",
        },
        name: { type: "string", minLength: 1, description: "the item's display name" },
        file: FILE,
      },
    },
    issue: {
      type: "object",
      additionalProperties: false,
      required: ["title"],
      properties: {
        id: { type: "string", pattern: "^[0-9a-f-]{36}$", description: "the issue GUID" },
        title: { type: "string", minLength: 1 },
        description: { type: "string" },
        status: { enum: ISSUE_STATUSES, default: "open" },
        type: { type: "string", description: "the issue type's title, e.g. Quality (default: the first)" },
        due_date: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" },
      },
    },
    bucket: {
      type: "object",
      additionalProperties: false,
      required: ["key"],
      properties: {
        key: { type: "string", pattern: "^[-_.a-z0-9]{3,128}$", description: "the bucket key" },
        policy: { enum: ["transient", "temporary", "persistent"], default: "transient" },
        owner: id("the client id of the app owning the bucket (default: the well-known app)"),
        objects: {
          type: "array",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["key", "file"],
            properties: { key: id("the object key"), file: FILE, content_type: { type: "string" } },
          },
        },
      },
    },
  },
} as const;

/** The schema as the repository publishes it. */
export function worldSchemaText(): string {
  return JSON.stringify(WORLD_SCHEMA, null, 2) + "\n";
}
