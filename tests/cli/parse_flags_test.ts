/** parseFlags (cli/global_options.ts) reads a flags string as commander does: names, value, key. */
import assert from "node:assert/strict";
import { GLOBAL_OPTIONS, parseFlags } from "../../src/command/global_options.ts";
import { AUTH_STATUS, BUCKET_LIST, OBJECT_DOWNLOAD, OBJECT_LIST } from "../../src/command/declarations.ts";

/** The same reading by regular expressions, as commander's own splitting does it. */
function byRegex(flags: string) {
  const words = flags.split(/[ ,|]+/).filter(Boolean);
  const short = words.find((w) => /^-[^-]$/.test(w));
  const long = words.find((w) => w.startsWith("--"))!;
  const negate = long.startsWith("--no-");
  const name = negate ? long.slice(5) : long.slice(2);
  return {
    ...(short ? { short } : {}),
    long,
    takesValue: words.some((w) => w.startsWith("<")),
    key: name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()),
    negate,
  };
}

Deno.test("parseFlags reads every declared flags string and odd ones as the regular expressions do", () => {
  const declared = [
    GLOBAL_OPTIONS,
    BUCKET_LIST.options,
    OBJECT_LIST.options,
    OBJECT_DOWNLOAD.options,
    AUTH_STATUS.options,
  ]
    .flat().map((o) => o.flags);
  const odd = [
    "-o, --output <format>",
    "--no-color",
    "--no-hooks",
    "-v|--verbose",
    "--opt [value]",
    "--a-b-c <x>",
    "--x-1",
    "--with-Upper",
    "--trailing-",
    "--double--dash",
    "  -q ,  --quiet  ",
    "--no-",
    "-ab, --long",
  ];
  for (const flags of [...declared, ...odd]) assert.deepEqual(parseFlags(flags), byRegex(flags), flags);
  assert.deepEqual(parseFlags("--non-interactive"), {
    long: "--non-interactive",
    takesValue: false,
    key: "nonInteractive",
    negate: false,
  });
});

Deno.test("parseFlags reads two long flags as commander does: the first is the other spelling, the second names the key", async () => {
  const { Option } = await import("@commander-js/extra-typings");
  for (
    const flags of [
      "--due-date, --due <date>",
      "--assigned-to, --assignee <id>",
      "--start-date, --start <date>",
    ]
  ) {
    const theirs = new Option(flags, "");
    const ours = parseFlags(flags);
    assert.equal(ours.short, theirs.short, flags);
    assert.equal(ours.long, theirs.long, flags);
    assert.equal(ours.key, theirs.attributeName(), flags);
    assert.equal(ours.takesValue, true, flags);
  }
});
