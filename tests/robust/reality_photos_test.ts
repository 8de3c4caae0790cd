/**
 * A photo deleted or emptied while `reality-capture upload` runs fails alone, as a usage error named
 * in the summary; the others are uploaded. Long jobs write progress lines where stderr is no terminal.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { addFault, openSandboxHome } from "../e2e/harness.ts";
import { loginUser } from "../e2e/user_login.ts";
import { seededAccountId } from "../../src/sandbox/admin/store.ts";

Deno.test("item 15: a photo deleted and one emptied during reality-capture upload fail alone (exit 2), named; the rest upload", async () => {
  const h = await openSandboxHome({ DIAZO_PROGRESS_EVERY_MS: "1" });
  try {
    const created = await h.run(["reality-capture", "create", "--name", "gone", "-o", "json"]);
    assert.equal(created.code, 0, created.stderr);
    const id = JSON.parse(created.stdout).photosceneid as string;
    await Deno.mkdir(path.join(h.home.cwd, "shots"));
    for (let i = 0; i < 10; i++) {
      await Deno.writeFile(
        path.join(h.home.cwd, "shots", `IMG_${i}.jpg`),
        new Uint8Array(32 * 1024).fill(i + 1),
      );
    }
    // The first request is held a moment: the photos of the second change meanwhile.
    await addFault(h.sb.url, { path: "/photo-to-3d/v1/file", method: "POST", delay_ms: 1500, count: 1 });
    const running = h.run([
      "reality-capture",
      "upload",
      id,
      "shots",
      "--per-request",
      "5",
      "--concurrency",
      "1",
      "-o",
      "json",
    ]);
    for (let fired = 0; fired === 0;) {
      await new Promise((r) => setTimeout(r, 50));
      const faults = await (await fetch(`${h.sb.url}/_sandbox/faults`)).json() as { fired: number }[];
      fired = faults[0]?.fired ?? 0;
    }
    await Deno.remove(path.join(h.home.cwd, "shots", "IMG_7.jpg"));
    await Deno.truncate(path.join(h.home.cwd, "shots", "IMG_8.jpg"), 0);
    const r = await running;
    assert.equal(r.code, 2, r.stderr);
    const report = JSON.parse(r.stdout) as {
      uploaded: number;
      failed: number;
      photos: { file: string; status: string }[];
    };
    assert.deepEqual([report.uploaded, report.failed], [8, 2]);
    assert.deepEqual(report.photos.filter((p) => p.status === "failed").map((p) => p.file), [
      path.join("shots", "IMG_7.jpg"),
      path.join("shots", "IMG_8.jpg"),
    ]);
    assert.match(
      r.stderr,
      /2 failed \(shots\/IMG_7\.jpg: it was deleted after the upload started; shots\/IMG_8\.jpg: it was emptied after the upload started\)/,
    );
  } finally {
    await h.close();
  }
});

Deno.test("item 19: admin user import and reality-capture upload write progress lines when stderr is no terminal", async () => {
  const h = await openSandboxHome({ DIAZO_PROGRESS_EVERY_MS: "1", DIAZO_NO_BROWSER: "1" });
  try {
    assert.equal((await loginUser(h.env, "account:read,account:write")).code, 0);
    const rows = Array.from({ length: 6 }, (_, i) => `progress.${i}@example.com,P,${i}`);
    await Deno.writeTextFile(
      path.join(h.home.cwd, "users.csv"),
      ["email,first_name,last_name", ...rows].join("\n"),
    );
    const imp = await h.run([
      "admin",
      "user",
      "import",
      "--account",
      seededAccountId(),
      "--from-file",
      "users.csv",
    ]);
    assert.equal(imp.code, 0, imp.stderr);
    assert.match(imp.stderr, /^users: \d\/6 users \(\d+%\), [\d.]+ users\/s$/m);

    const created = await h.run(["reality-capture", "create", "--name", "progress", "-o", "json"]);
    const id = JSON.parse(created.stdout).photosceneid as string;
    await Deno.mkdir(path.join(h.home.cwd, "shots"));
    for (let i = 0; i < 4; i++) {
      await Deno.writeFile(
        path.join(h.home.cwd, "shots", `IMG_${i}.jpg`),
        new Uint8Array(256 * 1024).fill(i + 1),
      );
    }
    const up = await h.run([
      "reality-capture",
      "upload",
      id,
      "shots",
      "--per-request",
      "1",
      "--concurrency",
      "1",
    ]);
    assert.equal(up.code, 0, up.stderr);
    assert.match(up.stderr, /^photos: [\d.]+\/1\.0 MiB \(\d+%\), [\d.]+ MiB\/s$/m);
    const quiet = await h.run(["reality-capture", "upload", id, "shots", "--quiet"]);
    assert.doesNotMatch(quiet.stderr, /^photos:/m);
  } finally {
    await h.close();
  }
});
