/**
 * Where the values of an option or argument complete from, beyond its declared choices
 * (command/decl.ts `complete`): read by the shell completion's entry (front/complete_sources.ts).
 */

/** Every source of values, with what it offers. */
export const COMPLETION_SOURCES = {
  bucket: "bucket keys of the app, from the platform (cached a minute)",
  project: "project ids (with their names), from the platform (cached a minute)",
  profile: "profile names of config.json",
  region: "data centres of the regional services",
  "bucket-region": "storage regions of buckets",
  topic: "help topics (diazo help <topic>)",
} as const;

/** One of COMPLETION_SOURCES. */
export type CompletionSource = keyof typeof COMPLETION_SOURCES;

/** The sources whose values come from the platform (with a time limit and a cache). */
export const REMOTE_SOURCES: readonly CompletionSource[] = ["bucket", "project"];
