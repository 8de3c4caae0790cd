/**
 * The values of a completion source (core/completion_sources.ts) at TAB time: regions and help topics
 * from the tables the code itself reads, profiles from config.json, buckets and projects from the
 * platform (complete_remote.ts, loaded only then). Never fails and never writes to the terminal: a
 * source it cannot read has no values.
 */
import type { CompletionSource } from "../core/completion_sources.ts";
import { BUCKET_REGIONS, DATA_CENTRES } from "../aps/regions.ts";
import { HELP_TOPICS } from "../command/global_options.ts";
import { loadConfig } from "../config/store.ts";
import { configDirFor } from "../platform/dirs.ts";
import type { Candidate } from "./complete_words.ts";
import type { SourceInput } from "./complete_remote.ts";

/** The values of `source` (all of them: the caller keeps those that start with what was typed). */
export async function sourceValues(source: CompletionSource, input: SourceInput): Promise<Candidate[]> {
  switch (source) {
    case "region":
      return DATA_CENTRES.map((r) => ({ value: r, description: "data centre" }));
    case "bucket-region":
      return BUCKET_REGIONS.map((r) => ({ value: r, description: "storage region" }));
    case "topic":
      return Object.entries(HELP_TOPICS).map(([value, description]) => ({ value, description }));
    case "profile":
      return await profiles(input.env);
    case "bucket":
    case "project":
      return await (await import("./complete_remote.ts")).remoteValues(source, input);
  }
}

/** The profiles of config.json, the active one said so; none when it cannot be read. */
async function profiles(env: Record<string, string | undefined>): Promise<Candidate[]> {
  try {
    const config = await loadConfig(configDirFor((k) => env[k], Deno.build.os));
    return Object.keys(config.profiles).map((name) => ({
      value: name,
      description: name === config.active_profile ? "the active profile" : "profile",
    }));
  } catch {
    return [];
  }
}
