/**
 * Output a person opens is inert: csv cells a spreadsheet would run as formulas get a leading `'`,
 * and bidi controls and line separators are escaped wherever control characters are.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { seededAccountId } from "../../src/sandbox/admin/store.ts";
import { renderCsv } from "../../src/core/output_csv.ts";
import { visible } from "../../src/core/sanitize.ts";
import { withSandboxHome } from "../e2e/harness.ts";
import { loginUser } from "../e2e/user_login.ts";

const ACC = seededAccountId();

Deno.test("item 11: admin user list -o csv neutralises a first name =HYPERLINK(...) imported from a CSV", async () => {
  await withSandboxHome(async (h) => {
    assert.equal((await loginUser(h.env, "account:read,account:write")).code, 0);
    const csv = 'email,first_name,last_name\nevil@example.com,"=HYPERLINK(""http://evil"",""x"")",@Sum\n';
    await Deno.writeTextFile(path.join(h.home.cwd, "users.csv"), csv);
    const imp = await h.run(["admin", "user", "import", "--account", ACC, "--from-file", "users.csv"]);
    assert.equal(imp.code, 0, imp.stderr);
    const list = await h.run(["admin", "user", "list", "--account", ACC, "-o", "csv"]);
    assert.equal(list.code, 0, list.stderr);
    const line = list.stdout.split("\r\n").find((l) => l.includes("evil@example.com"))!;
    assert.match(line, /,"'=HYPERLINK\(""http:\/\/evil"",""x""\) @Sum",/);
    assert.doesNotMatch(line, /(^|,)"?[=+@]/, "no cell begins with a formula character");
  });
});

Deno.test("item 11: csv cells beginning with = + - @ tab or CR get a leading '; numbers stay numbers", () => {
  const out = renderCsv([{ a: "=1+1", b: "+x", c: "-x", d: "@x", e: "\tx", f: "\rx", g: -5, h: "a=b" }]);
  assert.equal(out.split("\r\n")[1], `'=1+1,'+x,'-x,'@x,'\\tx,'\\rx,-5,a=b`);
});

Deno.test("item 16: bidi controls and U+2028/U+2029 are escaped in tables, csv and on stderr", async () => {
  assert.equal(
    visible("a\u202Eb\u2028c\u2029d\u2066e\u200Ff\u061Cg"),
    "a\\u202Eb\\u2028c\\u2029d\\u2066e\\u200Ff\\u061Cg",
  );
  assert.equal(visible("one\ntwo\u2028", { keepLines: true }), "one\ntwo\\u2028");
  await withSandboxHome(async (h) => {
    assert.equal((await loginUser(h.env, "account:read,account:write")).code, 0);
    const csv = "email,first_name,last_name\nbidi@example.com,txt.\u202Eexe,a\u2028b\n";
    await Deno.writeTextFile(path.join(h.home.cwd, "users.csv"), csv);
    assert.equal(
      (await h.run(["admin", "user", "import", "--account", ACC, "--from-file", "users.csv"])).code,
      0,
    );
    for (const format of ["table", "csv"]) {
      const list = await h.run(["admin", "user", "list", "--account", ACC, "-o", format]);
      assert.equal(list.code, 0, list.stderr);
      assert.match(list.stdout, /txt\.\\u202Eexe/);
      assert.match(list.stdout, /a\\u2028b/);
      assert.doesNotMatch(list.stdout, /[\u202E\u2028]/);
    }
    const bad = await h.run(["bucket", "get", "bad\u202Ekey\u2029"]);
    assert.notEqual(bad.code, 0);
    assert.doesNotMatch(bad.stderr, /[\u202E\u2029]/);
    assert.match(bad.stderr, /bad\\u202Ekey\\u2029/);
  });
});
