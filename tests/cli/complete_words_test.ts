/** Completion logic on a small command tree, and the argument form of `__complete`. */
import assert from "node:assert/strict";
import {
  completeWords,
  completionScript,
  formatCandidates,
  parseCompleteArgs,
  profileOnLine,
  SHELLS,
  slotAt,
  VALUES_ONLY_EXIT,
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
    { long: "--profile", takesValue: true, description: "profile", complete: "profile" },
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
        leaf("info", {
          arguments: [{ name: "bucketKey", required: true, variadic: false, complete: "bucket" }],
        }),
        leaf("copy", {
          options: [
            { long: "--dc", takesValue: true, description: "data centre", complete: "region" },
            { long: "--project", takesValue: true, description: "project", complete: "project" },
          ],
        }),
      ],
    }),
    leaf("object", {
      aliases: ["obj"],
      subcommands: [
        leaf("upload", {
          arguments: [{ name: "bucket", required: true, variadic: false, complete: "bucket" }, {
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
  assert.deepEqual(values(["bucket", ""]), ["copy", "create", "help", "info", "list"]);
  assert.deepEqual(values(["bucket", "l"]), ["list"]);
  assert.deepEqual(values(["ob"]), ["object"], "the name, not also its alias");
  assert.deepEqual(values(["obj"]), ["object"]);
  assert.deepEqual(values(["obj", "up"]), ["upload"], "an alias on the line leads into its command");
});

Deno.test("global options are skipped, with their values, on the way to the command", () => {
  assert.deepEqual(values(["-o", "json", "--profile", "work", "bucket", ""]), [
    "copy",
    "create",
    "help",
    "info",
    "list",
  ]);
  assert.deepEqual(values(["--debug", "buc"]), ["bucket"]);
  assert.deepEqual(values(["--output=yaml", "bucket", "cr"]), ["create"]);
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
  assert.deepEqual(
    values(["object", "upload", "--part-size", ""]),
    [],
    "a free value: the shell completes files",
  );
  assert.deepEqual(values(["--debug", "bu"]), ["bucket"], "a flag without a value takes none");
});

Deno.test("positional arguments: choices where declared, else nothing (file names)", () => {
  assert.deepEqual(values(["completions", "f"]), ["fish"]);
  assert.deepEqual(values(["completions", "fish", ""]), []);
  assert.deepEqual(values(["object", "upload", "my-bucket", ""]), [], "the files after the bucket");
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

const BUCKETS = [
  { value: "alpha", description: "US, transient" },
  { value: "beta", description: "EMEA, persistent" },
];

Deno.test("slots: an option or argument with choices or a source; files and commands are none", () => {
  assert.deepEqual(slotAt(TREE, ["bucket", "info", "a"])?.source, "bucket");
  assert.deepEqual(slotAt(TREE, ["--profile", "w"])?.source, "profile");
  assert.deepEqual(slotAt(TREE, ["--profile=w"])?.prefix, "--profile=");
  assert.deepEqual(slotAt(TREE, ["bucket", "copy", "--dc", "="])?.prefix, "=", "bash's split form");
  assert.deepEqual(slotAt(TREE, ["-o", ""])?.fixed.map((c) => c.value), ["json", "yaml", "table", "csv"]);
  assert.equal(slotAt(TREE, ["object", "upload", "my-bucket", ""]), undefined, "files");
  assert.equal(slotAt(TREE, ["object", "upload", "--part-size", ""]), undefined, "a free value");
  assert.equal(slotAt(TREE, ["bucket", ""]), undefined, "a command");
  assert.equal(slotAt(TREE, ["bucket", "info", "-"]), undefined, "a flag");
});

Deno.test("a slot's values come from its source, by prefix, with the value's own description", () => {
  const extras = { values: { bucket: BUCKETS, profile: [{ value: "work", description: "profile" }] } };
  assert.deepEqual(completeWords(TREE, ["bucket", "info", ""], extras), BUCKETS);
  assert.deepEqual(values(["object", "upload", "b"], extras), ["beta"]);
  assert.deepEqual(values(["object", "upload", "alpha", ""], extras), [], "only the first argument");
  assert.deepEqual(values(["--profile", ""], extras), ["work"]);
  assert.deepEqual(values(["--profile=w"], extras), ["--profile=work"]);
  assert.deepEqual(values(["--profile", "=", "w"], extras), ["work"]);
  assert.deepEqual(values(["bucket", "info", ""]), [], "no values looked up: none");
  assert.deepEqual(values(["bucket", "info", "EMEA"], extras), [], "a description matches only for projects");
});

Deno.test("regions match in any case; a project name typed finds its id", () => {
  const extras = {
    values: {
      region: [{ value: "EMEA", description: "" }, { value: "US", description: "" }],
      project: [{ value: "b.1234", description: "Riverside Tower" }],
    },
  };
  assert.deepEqual(values(["bucket", "copy", "--dc", "e"], extras), ["EMEA"]);
  assert.deepEqual(
    completeWords(TREE, ["bucket", "copy", "--dc", "u"], extras)[0].description,
    "data centre",
  );
  assert.deepEqual(values(["bucket", "copy", "--project", "river"], extras), ["b.1234"]);
  assert.deepEqual(values(["bucket", "copy", "--project", "b."], extras), ["b.1234"]);
  assert.deepEqual(values(["bucket", "copy", "--project", "x"], extras), []);
});

Deno.test("help: the next word is a subcommand, or at the top a help topic", () => {
  const topics = { values: { topic: [{ value: "environment", description: "variables" }] } };
  assert.deepEqual(values(["help", ""], topics), ["bucket", "completions", "environment", "object"]);
  assert.deepEqual(values(["help", "e"], topics), ["environment"]);
  assert.equal(slotAt(TREE, ["help", ""])?.source, "topic");
  assert.deepEqual(values(["bucket", "help", "c"], topics), ["copy", "create"], "no topics below the top");
  assert.equal(slotAt(TREE, ["bucket", "help", ""])?.source, undefined);
  assert.deepEqual(values(["help", "bucket", "i"]), ["info"], "help walks down the subcommands");
  assert.deepEqual(values(["help", "bucket", "info", ""]), []);
});

Deno.test("the --profile typed on the line, in each form, before the word being typed", () => {
  assert.equal(profileOnLine(["--profile", "work", "bucket", "info", ""]), "work");
  assert.equal(profileOnLine(["bucket", "--profile=ci", "info", ""]), "ci");
  assert.equal(profileOnLine(["--profile", "=", "ci", "bucket", ""]), "ci");
  assert.equal(profileOnLine(["--profile", "wo"]), undefined, "being typed");
  assert.equal(profileOnLine(["bucket", "info", ""]), undefined);
  assert.equal(profileOnLine(["--", "--profile", "x", ""]), undefined, "an operand");
});

Deno.test("every script offers no file names when __complete says the word takes values only", () => {
  assert.match(
    completionScript("bash"),
    new RegExp(`\\$\\? == ${VALUES_ONLY_EXIT} \\]\\] && compopt \\+o default`),
  );
  assert.match(
    completionScript("zsh"),
    new RegExp(`elif \\(\\( code != ${VALUES_ONLY_EXIT} \\)\\); then\\n\\s+_files`),
  );
  assert.match(
    completionScript("fish"),
    new RegExp(`test \\$code -eq ${VALUES_ONLY_EXIT}; or __fish_complete_path`),
  );
  // PowerShell asks the same entry for values as for commands: one call per TAB, the word in --current=.
  const ps = completionScript("powershell");
  assert.equal(ps.match(/__complete powershell/g)?.length, 1);
  assert.match(ps, /"--current=\$wordToComplete" -- @words/);
});
