/** Completion logic on a small command tree, and the argument form of `__complete`. */
import assert from "node:assert/strict";
import {
  completeWords,
  completionScript,
  formatCandidates,
  parseCompleteArgs,
  SHELLS,
} from "../../src/front/complete_words.ts";
import type { CommandSpec } from "../../src/pipeline/command.ts";

const leaf = (name: string, extra: Partial<CommandSpec> = {}): CommandSpec => ({
  name,
  aliases: [],
  description: `${name} it`,
  options: [],
  arguments: [],
  subcommands: [],
  allowUnknownOptions: false,
  allowExcessArguments: false,
  ...extra,
});

const TREE: CommandSpec = leaf("diazo", {
  options: [
    {
      short: "-o",
      long: "--output",
      takesValue: true,
      choices: ["json", "yaml", "table", "csv"],
      description: "format",
    },
    { long: "--profile", takesValue: true, description: "profile" },
    { long: "--debug", takesValue: false, description: "debug" },
    { short: "-V", long: "--version", takesValue: false, description: "version" },
    { short: "-h", long: "--help", takesValue: false, description: "help" },
  ],
  subcommands: [
    leaf("bucket", {
      subcommands: [
        leaf("list", {
          options: [{
            long: "--region",
            takesValue: true,
            choices: ["US", "EMEA"],
            description: "region",
          }],
        }),
        leaf("create"),
      ],
    }),
    leaf("object", {
      aliases: ["obj"],
      subcommands: [
        leaf("upload", {
          arguments: [{ name: "bucket", required: true, variadic: false }, {
            name: "files",
            required: true,
            variadic: true,
          }],
          options: [
            { long: "--part-size", takesValue: true, description: "part size" },
            { long: "--resume", takesValue: false, description: "resume" },
            { short: "-h", long: "--help", takesValue: false, description: "help" },
          ],
        }),
      ],
    }),
    leaf("completions", {
      arguments: [{
        name: "shell",
        required: true,
        variadic: false,
        choices: ["bash", "zsh", "fish", "powershell"],
      }],
    }),
  ],
});

const values = (words: string[], extras = {}) => completeWords(TREE, words, extras).map((c) => c.value);

Deno.test("commands and subcommands by prefix, aliases when only they match", () => {
  assert.deepEqual(values(["buc"]), ["bucket"]);
  assert.deepEqual(values([""]), ["bucket", "completions", "help", "object"]);
  assert.deepEqual(values(["bucket", ""]), ["create", "help", "list"]);
  assert.deepEqual(values(["bucket", "l"]), ["list"]);
  assert.deepEqual(values(["ob"]), ["object"], "the name, not also its alias");
  assert.deepEqual(values(["obj"]), ["object"]);
  assert.deepEqual(values(["obj", "up"]), ["upload"], "an alias on the line leads into its command");
});

Deno.test("global options are skipped, with their values, on the way to the command", () => {
  assert.deepEqual(values(["-o", "json", "--profile", "work", "bucket", ""]), ["create", "help", "list"]);
  assert.deepEqual(values(["--debug", "buc"]), ["bucket"]);
  assert.deepEqual(values(["--output=yaml", "bucket", "c"]), ["create"]);
});

Deno.test("flags: the command's own and its ancestors', without an ancestor's --help/--version", () => {
  assert.deepEqual(values(["object", "upload", "--"]), [
    "--debug",
    "--help",
    "--output",
    "--part-size",
    "--profile",
    "--resume",
  ]);
  assert.deepEqual(values(["object", "upload", "--r"]), ["--resume"]);
  assert.deepEqual(values(["-"]), [
    "--debug",
    "--help",
    "--output",
    "--profile",
    "--version",
    "-V",
    "-h",
    "-o",
  ]);
});

Deno.test("option values: choices after a flag, in --flag=value form, and in bash's split `--flag = v` form", () => {
  assert.deepEqual(values(["-o", ""]), ["csv", "json", "table", "yaml"]);
  assert.deepEqual(values(["bucket", "list", "--region", "E"]), ["EMEA"]);
  assert.deepEqual(values(["--output=j"]), ["--output=json"]);
  assert.deepEqual(values(["--output", "=", "y"]), ["yaml"]);
  assert.deepEqual(values(["--output", "="]), ["=csv", "=json", "=table", "=yaml"]);
  assert.deepEqual(values(["--profile", ""]), [], "a free value: the shell completes files");
  assert.deepEqual(values(["--debug", "bu"]), ["bucket"], "a flag without a value takes none");
});

Deno.test("positional arguments: choices where declared, else nothing (file names)", () => {
  assert.deepEqual(values(["completions", "f"]), ["fish"]);
  assert.deepEqual(values(["completions", "fish", ""]), []);
  assert.deepEqual(values(["object", "upload", "my-bucket", ""]), []);
  assert.deepEqual(values(["object", "upload", "--", "-x"]), [], "after -- everything is an operand");
});

Deno.test("plugins and aliases complete at the top only, never shadowing a built-in", () => {
  const extras = { plugins: ["bucketeer", "bucket", "hello"], aliases: ["buckets"] };
  assert.deepEqual(values(["buc"], extras), ["bucket", "bucketeer", "buckets"]);
  assert.deepEqual(
    completeWords(TREE, ["buc"], extras).find((c) => c.value === "bucketeer")?.description,
    "plugin",
  );
  assert.deepEqual(values(["bucket", "h"], extras), ["help"], "below the top, only the command's own words");
});

Deno.test("output per shell: bare names for bash, name<TAB>description elsewhere", () => {
  const c = [{ value: "--output", description: "output\tformat\n" }];
  assert.equal(formatCandidates("bash", c), "--output\n");
  assert.equal(formatCandidates("fish", c), "--output\toutput format\n");
});

Deno.test("__complete arguments: words after --, the current word last, or from --current= (PowerShell)", () => {
  assert.deepEqual(parseCompleteArgs(["bash", "--", "bucket", ""]), { shell: "bash", words: ["bucket", ""] });
  assert.deepEqual(parseCompleteArgs(["fish", "--"]), { shell: "fish", words: [""] });
  assert.deepEqual(parseCompleteArgs(["powershell", "--current=", "--", "bucket"]), {
    shell: "powershell",
    words: ["bucket", ""],
  });
  assert.deepEqual(parseCompleteArgs(["powershell", "--current=buc", "--"]), {
    shell: "powershell",
    words: ["buc"],
  });
  assert.deepEqual(parseCompleteArgs(["powershell", "--current=u", "object"]), {
    shell: "powershell",
    words: ["object", "u"],
  });
  assert.equal(parseCompleteArgs(["tcsh", "--", "x"]), undefined);
  assert.equal(parseCompleteArgs(["bash", "x"]), undefined);
});

Deno.test("every script calls back into the same program through __complete", () => {
  for (const shell of SHELLS) {
    const s = completionScript(shell, "diazo");
    assert.match(s, new RegExp(`__complete ${shell}`), shell);
    assert.ok(s.endsWith("\n"));
  }
});
