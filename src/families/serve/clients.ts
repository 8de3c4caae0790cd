/**
 * The assistants `serve --print-config` knows (client_config.ts writes their entries), apart from the
 * writer so that `serve`'s declaration reads them without loading it (and node:path).
 */

/** Assistants `--print-config` writes an entry for. */
export const CONFIG_CLIENTS = ["claude", "claude-code", "cursor", "vscode"] as const;

/** One of them. */
export type ConfigClient = (typeof CONFIG_CLIENTS)[number];
