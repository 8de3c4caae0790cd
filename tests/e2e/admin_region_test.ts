/** e2e: `--region` of the `admin` commands (the `Region` header) against a sandbox. */
import assert from "node:assert/strict";
import { seededAccountId } from "../../src/sandbox/admin/store.ts";
import { assertOneError, diazo, json, requestLog, sandboxEnv, withSandboxHome } from "./harness.ts";
import { loginUser } from "./user_login.ts";

type Project = { id: string; name: string; status: string };

Deno.test("admin --region: lists, gets, users and creates in the named region; a bad region sends nothing", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url, { DIAZO_NO_BROWSER: "1" });
    const account = seededAccountId();
    const login = await loginUser(env, "account:read,account:write");
    assert.equal(login.code, 0, login.stderr);
    const list = (...extra: string[]) =>
      diazo(["admin", "project", "list", "--account", `b.${account}`, "-o", "json", ...extra], { env });

    const emeaRun = await list("--region", "emea");
    assert.equal(emeaRun.code, 0, emeaRun.stderr);
    const emea = json<Project[]>(emeaRun);
    assert.deepEqual(emea.map((p) => p.name), ["Canal Quarter Offices"]);
    const us = json<Project[]>(await list());
    assert.equal(us.length, 4);
    assert.ok(us.some((p) => p.name === "Riverside Tower"));
    assert.ok(!us.some((p) => p.id === emea[0].id), "without --region the EMEA project is not listed");

    const before = (await requestLog(sb.url)).length;
    const bad = await diazo(["admin", "project", "list", "--account", account, "--region", "XX"], { env });
    assertOneError(bad, 2, /region 'XX'/, /US, EMEA, AUS, CAN, DEU, IND, JPN, GBR/);
    const badGet = await diazo(["admin", "project", "get", emea[0].id, "--region", "eu"], { env });
    assertOneError(badGet, 2, /region 'eu'/, /EMEA/);
    assert.equal((await requestLog(sb.url)).length, before, "a bad region sends no request");

    const missing = await diazo(["admin", "project", "get", emea[0].id], { env });
    assertOneError(missing, 4, /^error: Project not found$/);
    const got = await diazo(["admin", "project", "get", emea[0].id, "--region", "EMEA", "-o", "json"], {
      env,
    });
    assert.equal(got.code, 0, got.stderr);
    assert.equal(json<Project>(got).name, "Canal Quarter Offices");

    const members = await diazo(["admin", "project", "users", emea[0].id, "--region", "EMEA", "-o", "json"], {
      env,
    });
    assert.equal(members.code, 0, members.stderr);
    const rows = json<{ email: string; projectAdmin: boolean }[]>(members);
    assert.equal(rows.find((u) => u.email === "sandbox.user@diazo.invalid")?.projectAdmin, true);
    assert.equal((await diazo(["admin", "project", "users", emea[0].id], { env })).code, 4);

    const directory = (...extra: string[]) =>
      diazo(["admin", "user", "list", "--account", account, "-o", "json", ...extra], { env });
    assert.equal(json<unknown[]>(await directory()).length, 12);
    assert.deepEqual(json(await directory("--region", "EMEA")), [], "the seeded directory is in the US");

    // --wait polls the project in the region it was created in (elsewhere it would be not found).
    const created = await diazo([
      "admin",
      "project",
      "create",
      "--account",
      account,
      "--name",
      "Harbour Hotel",
      "--type",
      "Hotel",
      "--region",
      "Emea",
      "--wait",
      "-o",
      "json",
    ], { env });
    assert.equal(created.code, 0, created.stderr);
    const hotel = json<Project>(created);
    assert.equal(hotel.status, "active");
    assert.deepEqual(
      json<Project[]>(await list("--region", "EMEA")).map((p) => p.id).sort(),
      [
        emea[0].id,
        hotel.id,
      ].sort(),
    );
    assert.equal(json<Project[]>(await list()).length, 4, "the US list is unchanged");
  }));
