import assert from "node:assert/strict";
import { editDistance, suggest } from "../../src/core/suggest.ts";
import { commandWord } from "../../src/front/argv.ts";
import { cacheDirFor, configDirFor, stateDirFor } from "../../src/platform/dirs.ts";

Deno.test("edit distance and suggestions", () => {
  assert.equal(editDistance("bucket", "buckt"), 1);
  assert.equal(editDistance("sadn", "sand"), 1);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(suggest("buckt", ["auth", "bucket", "config"]), "bucket");
  assert.equal(suggest("zzzzzz", ["auth", "bucket"]), undefined);
});

Deno.test("commandWord skips global options and their values", () => {
  assert.equal(commandWord(["--output", "json", "--profile", "x", "bucket", "list"]), "bucket");
  assert.equal(commandWord(["-o", "json", "--debug", "auth"]), "auth");
  assert.equal(commandWord(["--output=json", "config"]), "config");
  assert.equal(commandWord(["--debug"]), undefined);
});

Deno.test("config and state dirs per OS and overrides", () => {
  const env = (m: Record<string, string>) => (k: string) => m[k];
  assert.equal(configDirFor(env({ HOME: "/h" }), "linux"), "/h/.config/diazo");
  assert.equal(configDirFor(env({ HOME: "/h", XDG_CONFIG_HOME: "/x" }), "darwin"), "/x/diazo");
  assert.equal(configDirFor(env({ DIAZO_CONFIG_DIR: "/d", XDG_CONFIG_HOME: "/x" }), "linux"), "/d");
  assert.equal(
    configDirFor(env({ APPDATA: "C:\\Users\\u\\AppData\\Roaming" }), "windows"),
    "C:\\Users\\u\\AppData\\Roaming\\diazo",
  );
  assert.equal(stateDirFor(env({ HOME: "/h" }), "linux"), "/h/.local/state/diazo");
  assert.equal(stateDirFor(env({ LOCALAPPDATA: "C:\\L" }), "windows"), "C:\\L\\diazo");
});

Deno.test("the cache dir per OS and overrides (completion values live there)", () => {
  const env = (m: Record<string, string>) => (k: string) => m[k];
  assert.equal(cacheDirFor(env({ HOME: "/h" }), "linux"), "/h/.cache/diazo");
  assert.equal(cacheDirFor(env({ HOME: "/h", XDG_CACHE_HOME: "/x" }), "darwin"), "/x/diazo");
  assert.equal(cacheDirFor(env({ DIAZO_CACHE_DIR: "/d", XDG_CACHE_HOME: "/x" }), "linux"), "/d");
  assert.equal(cacheDirFor(env({ LOCALAPPDATA: "C:\\L" }), "windows"), "C:\\L\\diazo\\cache");
});
