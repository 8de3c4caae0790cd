import assert from "node:assert/strict";
import {
  aliasChain,
  type AliasRules,
  expandAliases,
  expandOne,
  shadowedAliases,
  validAliasName,
} from "../../src/extend/aliases.ts";
import { DiazoError } from "../../src/core/errors.ts";
import { commandWordIndex } from "../../src/front/argv.ts";

const BUILTINS = new Set(["bucket", "object", "translate", "help"]);

function rules(aliases: Record<string, string>): AliasRules {
  return { aliases, isBuiltin: (w) => BUILTINS.has(w), wordIndex: commandWordIndex };
}

function usageMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof DiazoError, `a DiazoError, got ${e}`);
    assert.equal(e.exitCode, 2);
    return e.message;
  }
  throw new Error("expected an error");
}

Deno.test("expandOne: shell-style split, the arguments appended in order", () => {
  assert.deepEqual(expandOne("up", `object upload --part-size "16"`, ["b1", "a b.obj"]), [
    "object",
    "upload",
    "--part-size",
    "16",
    "b1",
    "a b.obj",
  ]);
  assert.deepEqual(expandOne("q", `bucket list --query '[].bucketKey'`, []), [
    "bucket",
    "list",
    "--query",
    "[].bucketKey",
  ]);
});

Deno.test("expandOne: $1..$n placeholders take arguments by position first; the unused rest is appended", () => {
  assert.deepEqual(
    expandOne("dl", "object download $2 $1 --out=./$1", ["key.obj", "bucket-a", "--wait", "x"]),
    [
      "object",
      "download",
      "bucket-a",
      "key.obj",
      "--out=./key.obj",
      "--wait",
      "x",
    ],
  );
  // An argument with spaces stays one word: placeholders are filled after splitting.
  assert.deepEqual(expandOne("t", "translate start $1", ["a b"]), ["translate", "start", "a b"]);
});

Deno.test("expandOne: too few arguments for the placeholders, and an empty expansion, are usage errors", () => {
  assert.match(
    usageMessage(() => expandOne("dl", "object download $1 $2", ["only"])),
    /needs 2 arguments.*got 1/,
  );
  assert.match(usageMessage(() => expandOne("e", "", [])), /alias 'e' expands to nothing/);
  assert.match(usageMessage(() => expandOne("e", "   \t ", ["x"])), /alias 'e' expands to nothing/);
  assert.match(
    usageMessage(() => expandOne("q", `bucket "list`, [])),
    /alias 'q' has an unterminated double quote/,
  );
});

Deno.test("expandAliases: global options before the word stay; aliases may chain; built-ins are never expanded", () => {
  const r = rules({ lsb: "bucket list", l: "lsb --limit 2", bucket: "object list" });
  assert.deepEqual(expandAliases(["-o", "json", "l", "--query", "[0]"], r), {
    args: ["-o", "json", "bucket", "list", "--limit", "2", "--query", "[0]"],
    chain: ["l", "lsb"],
  });
  assert.deepEqual(expandAliases(["bucket", "list"], r), { args: ["bucket", "list"], chain: [] });
  assert.deepEqual(expandAliases(["--profile", "l", "x"], r), { args: ["--profile", "l", "x"], chain: [] });
  assert.deepEqual(expandAliases(["hello", "x"], r), { args: ["hello", "x"], chain: [] }, "not an alias");
});

Deno.test("expandAliases: a loop is an error naming the chain", () => {
  const err = (() => {
    try {
      expandAliases(["a", "x"], rules({ a: "b --one", b: "c", c: "a" }));
    } catch (e) {
      return e as DiazoError;
    }
  })();
  assert.ok(err instanceof DiazoError);
  assert.equal(err.code, "alias_loop");
  assert.equal(err.exitCode, 2);
  assert.equal(err.message, "Alias loop: a → b → c → a");
  assert.throws(() => expandAliases(["self"], rules({ self: "self" })), /Alias loop: self → self/);
});

Deno.test("aliasChain: follows first words to a command; a loop is found without any arguments", () => {
  assert.deepEqual(aliasChain("l", rules({ lsb: "bucket list", l: "-o json lsb" })), ["l", "lsb"]);
  assert.deepEqual(aliasChain("x", rules({ x: "$1 list" })), ["x"]);
  assert.throws(() => aliasChain("a", rules({ a: "b $1", b: "--profile p a" })), /Alias loop: a → b → a/);
});

Deno.test("shadowedAliases and validAliasName", () => {
  assert.deepEqual(
    shadowedAliases({ object: "x", lsb: "bucket list", bucket: "y" }, (w) => BUILTINS.has(w)),
    [
      "bucket",
      "object",
    ],
  );
  assert.ok(validAliasName("lsb"));
  assert.ok(validAliasName("up.v2"));
  assert.ok(!validAliasName("-x"));
  assert.ok(!validAliasName("a b"));
  assert.ok(!validAliasName(""));
});
