import assert from "node:assert/strict";
import { Command } from "@commander-js/extra-typings";
import { pathOutputArgs } from "../../src/cli/argv.ts";
import type { AnyCommand } from "../../src/cli/command.ts";
import { completionTree } from "../../src/cli/completions.ts";
import { registerWorkItems } from "../../src/cli/da_workitem.ts";

Deno.test("-o names a path after download/generate commands, the format everywhere else", () => {
  assert.deepEqual(pathOutputArgs(["object", "download", "b", "k", "-o", "dir/"]), [
    "object",
    "download",
    "b",
    "k",
    "--out",
    "dir/",
  ]);
  assert.deepEqual(pathOutputArgs(["-o", "json", "object", "download", "b", "k", "-o", "x"]), [
    "-o",
    "json",
    "object",
    "download",
    "b",
    "k",
    "--out",
    "x",
  ], "a -o before the command word stays the global format flag");
  assert.deepEqual(pathOutputArgs(["generate", "obj", "--size", "1MB", "-o", "m.obj"]).at(-2), "--out");
  assert.deepEqual(pathOutputArgs(["translate", "download", "U", "-o", "d"]).at(-2), "--out");
  assert.deepEqual(pathOutputArgs(["object", "list", "b", "-o", "json"]), [
    "object",
    "list",
    "b",
    "-o",
    "json",
  ]);
  assert.deepEqual(pathOutputArgs(["translate", "status", "U", "-o", "json"]).at(-2), "-o");
  assert.deepEqual(pathOutputArgs(["object", "download", "b", "--", "-o"]), [
    "object",
    "download",
    "b",
    "--",
    "-o",
  ]);
});

Deno.test("da workitem run: --output name=value (or a word that is no format) is the output argument; -o json the format", () => {
  const run = ["da", "workitem", "run", "Copy+prod"];
  assert.deepEqual(pathOutputArgs([...run, "--output", "result=a.pdf", "-o", "json"]).slice(4), [
    "--output-arg",
    "result=a.pdf",
    "-o",
    "json",
  ]);
  assert.deepEqual(pathOutputArgs([...run, "--output=r=b/k"]).slice(4), ["--output-arg", "r=b/k"]);
  assert.deepEqual(pathOutputArgs([...run, "--output", "result"]).slice(4), ["--output-arg", "result"]);
  assert.deepEqual(pathOutputArgs([...run, "--output", "yaml"]).slice(4), ["--output", "yaml"]);
  assert.deepEqual(pathOutputArgs([...run, "-o", "table"]).slice(4), ["-o", "table"]);
  assert.deepEqual(pathOutputArgs(["--output", "x=y", ...run]).slice(0, 2), ["--output", "x=y"]);
});

Deno.test("da workitem run: help and completions spell the output argument --output, never --output-arg", () => {
  const da = new Command("da");
  registerWorkItems(da as unknown as AnyCommand, () => {
    throw new Error("no run here");
  });
  const run = da.commands.find((c) => c.name() === "workitem")!.commands.find((c) => c.name() === "run")!;
  const help = run.helpInformation();
  assert.match(help, /--output <name=bucket\/key\|file\|url>/);
  assert.doesNotMatch(help, /--output-arg/);
  const tree = completionTree(run as unknown as AnyCommand);
  const flags = tree.options.flatMap((o) => o.flags);
  assert.ok(flags.includes("--input") && !flags.includes("--output-arg"), flags.join(" "));
});
