import assert from "node:assert/strict";
import path from "node:path";
import { DiazoError } from "../../src/core/errors.ts";
import { configuredPath, listPlugins, resolvePlugin } from "../../src/extend/plugins.ts";
import { emptyPluginsConfig, type PluginsConfig } from "../../src/extend/plugins_config.ts";
import type { LookupOptions } from "../../src/platform/which.ts";

const CONFIG_FILE = "/home/u/.config/diazo/plugins.json";

function lookup(files: Record<string, boolean>, pathValue = "/a:/b"): LookupOptions {
  return {
    os: "linux",
    path: pathValue,
    view: {
      listFiles: (dir) =>
        Object.keys(files).filter((f) => path.dirname(f) === dir).map((f) => path.basename(f)),
      isExecutable: (f) => files[f] === true,
    },
  };
}

function config(plugins: PluginsConfig["plugins"]): PluginsConfig {
  return { ...emptyPluginsConfig(), plugins };
}

const isBuiltin = (w: string) => w === "bucket";

Deno.test("listPlugins: PATH plugins with their settings, and every warning plugin list must show", () => {
  const files = {
    "/a/diazo-hello": true,
    "/b/diazo-hello": true, // shadowed by /a
    "/a/diazo-noexec": false,
    "/b/diazo-bucket": true, // clashes with a built-in
    "/b/diazo-off": true,
    "/opt/tool": true,
  };
  const { plugins, warnings } = listPlugins({
    config: config({
      hello: { enabled: true, description: "greets" },
      off: { enabled: false },
      special: { enabled: true, path: "/opt/tool", description: "explicit" },
      gone: { enabled: true, path: "missing/diazo-gone" },
      ghost: { enabled: true },
    }),
    configFile: CONFIG_FILE,
    lookup: lookup(files),
    isBuiltin,
  });
  assert.deepEqual(plugins, [
    { name: "bucket", path: "/b/diazo-bucket", enabled: true, description: "", source: "PATH" },
    { name: "ghost", path: null, enabled: true, description: "", source: "config" },
    {
      name: "gone",
      path: "/home/u/.config/diazo/missing/diazo-gone",
      enabled: true,
      description: "",
      source: "config",
    },
    { name: "hello", path: "/a/diazo-hello", enabled: true, description: "greets", source: "PATH" },
    { name: "off", path: "/b/diazo-off", enabled: false, description: "", source: "PATH" },
    { name: "special", path: "/opt/tool", enabled: true, description: "explicit", source: "config" },
  ]);
  assert.deepEqual(warnings.sort(), [
    "/a/diazo-noexec is named like a diazo plugin but is not executable",
    "/b/diazo-hello is shadowed by /a/diazo-hello, which comes earlier on PATH",
    "plugin 'bucket' (/b/diazo-bucket) is hidden by the built-in command 'diazo bucket'",
    "plugin 'ghost' is configured in /home/u/.config/diazo/plugins.json but no diazo-ghost is on PATH",
    "plugin 'gone': configured path /home/u/.config/diazo/missing/diazo-gone does not exist or is not executable",
  ]);
});

Deno.test("listPlugins: a configured path wins over the PATH plugin of the same name, which is reported shadowed", () => {
  const { plugins, warnings } = listPlugins({
    config: config({ hello: { enabled: true, path: "/opt/hello" } }),
    configFile: CONFIG_FILE,
    lookup: lookup({ "/a/diazo-hello": true, "/opt/hello": true }),
    isBuiltin,
  });
  assert.deepEqual(plugins.map((p) => [p.name, p.path, p.source]), [["hello", "/opt/hello", "config"]]);
  assert.deepEqual(warnings, ["/a/diazo-hello is shadowed by the configured path /opt/hello"]);
});

Deno.test("resolvePlugin: PATH lookup, explicit path, disabled and missing plugins", () => {
  const files = { "/a/diazo-hello": true, "/b/diazo-off": true, "/opt/tool": true };
  const input = (plugins: PluginsConfig["plugins"]) => ({
    config: config(plugins),
    configFile: CONFIG_FILE,
    lookup: lookup(files),
  });
  assert.equal(resolvePlugin("hello", input({})), "/a/diazo-hello");
  assert.equal(resolvePlugin("nope", input({})), undefined);
  assert.equal(resolvePlugin("../a/diazo-hello", input({})), undefined, "no path tricks in a command word");
  assert.equal(
    resolvePlugin("special", input({ special: { enabled: true, path: "/opt/tool" } })),
    "/opt/tool",
  );

  const disabled = (() => {
    try {
      resolvePlugin("off", input({ off: { enabled: false } }));
    } catch (e) {
      return e as DiazoError;
    }
  })();
  assert.ok(disabled instanceof DiazoError);
  assert.equal(disabled.code, "plugin_disabled");
  assert.equal(disabled.message, "unknown command 'off'");
  assert.match(disabled.hint, /\/b\/diazo-off\) is disabled: enable it with `diazo plugin enable off`/);
  assert.equal(disabled.exitCode, 2);

  assert.throws(
    () => resolvePlugin("gone", input({ gone: { enabled: true, path: "/nowhere/x" } })),
    (e: unknown) =>
      e instanceof DiazoError && e.code === "plugin_path_missing" && /\/nowhere\/x/.test(e.message),
  );
});

Deno.test("configuredPath follows the injected OS's path rules, never the host's", () => {
  // POSIX rules on any host: an absolute path stays as it is, a relative one joins the config dir.
  assert.equal(configuredPath("/opt/tool", CONFIG_FILE, "/home/u", "linux"), "/opt/tool");
  assert.equal(configuredPath("bin/t", CONFIG_FILE, "/home/u", "darwin"), "/home/u/.config/diazo/bin/t");
  assert.equal(configuredPath("~/bin/t", CONFIG_FILE, "/home/u", "linux"), "/home/u/bin/t");
  // Windows rules on any host: drive letters, backslashes, %USERPROFILE% for `~`.
  const winConfig = "C:\\Users\\u\\AppData\\Roaming\\diazo\\plugins.json";
  assert.equal(configuredPath("D:\\tools\\t.exe", winConfig, "C:\\Users\\u", "windows"), "D:\\tools\\t.exe");
  assert.equal(
    configuredPath("bin/t.cmd", winConfig, "C:\\Users\\u", "windows"),
    "C:\\Users\\u\\AppData\\Roaming\\diazo\\bin\\t.cmd",
  );
  assert.equal(
    configuredPath("~\\bin\\t.exe", winConfig, "C:\\Users\\u", "windows"),
    "C:\\Users\\u\\bin\\t.exe",
  );
});
