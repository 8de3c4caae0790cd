import assert from "node:assert/strict";
import path from "node:path";
import {
  candidatePaths,
  findExecutable,
  pathDirs,
  pathExts,
  type PathView,
  pluginNameOf,
  pluginNamesOnPath,
  scanPathPlugins,
} from "../../src/platform/which.ts";

/** A fake file system: `files` maps a path to whether it is executable; Windows paths compare case-insensitively. */
function fakeView(os: string, files: Record<string, boolean>): PathView {
  const norm = (p: string) => (os === "windows" ? p.toLowerCase() : p);
  const table = new Map(Object.entries(files).map(([p, x]) => [norm(p), x]));
  const p = os === "windows" ? path.win32 : path.posix;
  return {
    listFiles(dir) {
      const names = Object.keys(files).filter((f) => norm(p.dirname(f)) === norm(dir)).map((f) =>
        p.basename(f)
      );
      return names.length ? names : undefined;
    },
    isExecutable: (file) => table.get(norm(file)) === true,
  };
}

Deno.test("pathDirs: ';' on Windows, ':' elsewhere; blank entries dropped", () => {
  assert.deepEqual(pathDirs("windows", "C:\\bin;;D:\\tools; "), ["C:\\bin", "D:\\tools"]);
  assert.deepEqual(pathDirs("linux", "/usr/bin::/opt/bin"), ["/usr/bin", "/opt/bin"]);
  assert.deepEqual(
    pathDirs("linux", "C:\\bin;D:\\x"),
    ["C", "\\bin;D", "\\x"],
    "POSIX does not split on ';'",
  );
  assert.deepEqual(pathDirs("darwin", undefined), []);
});

Deno.test("pathExts: PATHEXT upper-cased in order on Windows (default when unset), none elsewhere", () => {
  assert.deepEqual(pathExts("windows", undefined), [".COM", ".EXE", ".BAT", ".CMD"]);
  assert.deepEqual(
    pathExts("windows", ".exe;.Cmd;;PS1"),
    [".EXE", ".CMD"],
    "entries without a dot are ignored",
  );
  assert.deepEqual(pathExts("linux", ".EXE"), []);
});

Deno.test("candidatePaths: Windows tries every PATHEXT extension per directory; POSIX the bare name", () => {
  const win = { os: "windows", path: "C:\\bin;D:\\tools", pathext: ".EXE;.CMD" };
  assert.deepEqual(candidatePaths("diazo-foo", win), [
    "C:\\bin\\diazo-foo.EXE",
    "C:\\bin\\diazo-foo.CMD",
    "D:\\tools\\diazo-foo.EXE",
    "D:\\tools\\diazo-foo.CMD",
  ]);
  assert.deepEqual(candidatePaths("diazo-foo.cmd", win), [
    "C:\\bin\\diazo-foo.cmd",
    "D:\\tools\\diazo-foo.cmd",
  ]);
  assert.deepEqual(
    candidatePaths("C:\\x\\tool", win),
    ["C:\\x\\tool.EXE", "C:\\x\\tool.CMD"],
    "not searched on PATH",
  );
  assert.deepEqual(candidatePaths("diazo-foo", { os: "linux", path: "/a:/b" }), [
    "/a/diazo-foo",
    "/b/diazo-foo",
  ]);
  assert.deepEqual(candidatePaths("./diazo-foo", { os: "linux", path: "/a" }), ["./diazo-foo"]);
});

Deno.test("findExecutable: first executable candidate; Windows matches file names case-insensitively", () => {
  const os = "windows";
  const view = fakeView(os, { "C:\\bin\\diazo-foo.cmd": true, "D:\\tools\\DIAZO-FOO.EXE": true });
  const found = findExecutable("diazo-foo", { os, path: "C:\\bin;D:\\tools", pathext: ".EXE;.CMD", view });
  assert.equal(
    found,
    "C:\\bin\\diazo-foo.CMD",
    "the earlier directory wins over a preferred extension later",
  );
  const linux = fakeView("linux", { "/a/diazo-foo": false, "/b/diazo-foo": true });
  assert.equal(findExecutable("diazo-foo", { os: "linux", path: "/a:/b", view: linux }), "/b/diazo-foo");
  assert.equal(findExecutable("diazo-bar", { os: "linux", path: "/a:/b", view: linux }), undefined);
});

Deno.test("pluginNameOf: Windows needs a PATHEXT extension and ignores case; POSIX takes the rest of the name", () => {
  const exts = pathExts("windows", undefined);
  assert.equal(pluginNameOf("DIAZO-Foo.EXE", "windows", exts), "Foo");
  assert.equal(pluginNameOf("diazo-foo.cmd", "windows", exts), "foo");
  assert.equal(pluginNameOf("diazo-readme.txt", "windows", exts), undefined);
  assert.equal(
    pluginNameOf("diazo-foo", "windows", exts),
    undefined,
    "an extensionless sh shim is not run on Windows",
  );
  assert.equal(pluginNameOf("diazo-.exe", "windows", exts), undefined);
  assert.equal(pluginNameOf("diazo-foo.sh", "linux", []), "foo.sh");
  assert.equal(pluginNameOf("Diazo-foo", "linux", []), undefined, "POSIX names are case-sensitive");
  assert.equal(pluginNameOf("diazo", "linux", []), undefined);
});

Deno.test("scanPathPlugins (Windows rules): PATHEXT order within a directory, PATH order across, case-insensitive names", () => {
  const os = "windows";
  const view = fakeView(os, {
    "C:\\bin\\diazo-a.cmd": true,
    "C:\\bin\\diazo-a.exe": true,
    "C:\\bin\\diazo-notes.txt": true,
    "D:\\tools\\DIAZO-A.BAT": true,
    "D:\\tools\\diazo-b.exe": true,
  });
  const found = scanPathPlugins({ os, path: "C:\\bin;D:\\tools", pathext: ".COM;.EXE;.BAT;.CMD", view });
  assert.deepEqual(found, [
    { name: "a", file: "C:\\bin\\diazo-a.exe", executable: true },
    { name: "a", file: "C:\\bin\\diazo-a.cmd", executable: true, shadowedBy: "C:\\bin\\diazo-a.exe" },
    { name: "A", file: "D:\\tools\\DIAZO-A.BAT", executable: true, shadowedBy: "C:\\bin\\diazo-a.exe" },
    { name: "b", file: "D:\\tools\\diazo-b.exe", executable: true },
  ]);
});

Deno.test("scanPathPlugins (POSIX rules): not-executable files are reported but never shadow", () => {
  const os = "linux";
  const view = fakeView(os, {
    "/a/diazo-x": false,
    "/b/diazo-x": true,
    "/c/diazo-x": true,
    "/c/other": true,
  });
  const found = scanPathPlugins({ os, path: "/a:/b:/c", view });
  assert.deepEqual(found, [
    { name: "x", file: "/a/diazo-x", executable: false },
    { name: "x", file: "/b/diazo-x", executable: true },
    { name: "x", file: "/c/diazo-x", executable: true, shadowedBy: "/b/diazo-x" },
  ]);
});

Deno.test({
  name: "pluginNamesOnPath: real files; only executable plugins, each name once, sorted",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      const a = path.join(dir, "a");
      const b = path.join(dir, "b");
      await Deno.mkdir(a);
      await Deno.mkdir(b);
      await Deno.writeTextFile(path.join(a, "diazo-zeta"), "#!/bin/sh\n", { mode: 0o755 });
      await Deno.writeTextFile(path.join(a, "diazo-noexec"), "#!/bin/sh\n", { mode: 0o644 });
      await Deno.writeTextFile(path.join(b, "diazo-zeta"), "#!/bin/sh\n", { mode: 0o755 });
      await Deno.writeTextFile(path.join(b, "diazo-alpha"), "#!/bin/sh\n", { mode: 0o755 });
      await Deno.mkdir(path.join(b, "diazo-dir"));
      assert.deepEqual(await pluginNamesOnPath({ PATH: `${a}:${b}:/nonexistent` }), ["alpha", "zeta"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
