/**
 * `auth login --device` against a hostile platform: a discovery document that names a device endpoint
 * on another origin gets nothing sent there (http/origin.ts); the codes and addresses it
 * answers reach the terminal as visible escapes (core/sanitize.ts), and only an http(s) address reaches
 * the OS opener (platform/browser.ts).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { cliEnv, makeHome, spawnChild } from "../e2e/harness.ts";
import { hostileHome, type Route, startHostile } from "./_hostile.ts";
import { run } from "./_run.ts";

/** A discovery document naming `device` as the device authorization endpoint. */
function discoveryAt(base: string, device: string): Response {
  return Response.json({
    issuer: base,
    authorization_endpoint: `${base}/authentication/v2/authorize`,
    token_endpoint: `${base}/authentication/v2/token`,
    device_authorization_endpoint: device,
  });
}

Deno.test("device login: a device endpoint on another origin is refused (exit 2), nothing is sent there", async () => {
  const foreign = startHostile(() => Response.json({ device_code: "x", user_code: "X", expires_in: 5 }));
  const h = startHostile((_req, url, self) =>
    url.pathname === "/.well-known/openid-configuration"
      ? discoveryAt(self.url, `${foreign.url}/authentication/v2/device`)
      : undefined
  );
  const { home, env } = await hostileHome(h);
  try {
    const started = Date.now();
    const r = await run(["auth", "login", "--device"], { ...env, DIAZO_NO_BROWSER: "1" }, home.cwd);
    assert.ok(Date.now() - started < 10_000, "refused at once");
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        `^error: refusing to send the client credentials to ${foreign.url}: it is not the platform's address ${h.url}\n`,
      ),
    );
    assert.match(
      r.stderr,
      /\nhint: diazo sends credentials only to the platform address.*`diazo auth status`/,
    );
    assert.deepEqual(foreign.hits, [], "nothing reached the other origin");
    assert.deepEqual(h.hits.map((x) => x.path), ["/.well-known/openid-configuration"]);
    assert.ok(h.hits.every((x) => x.authorization === null), "no credential sent at all");
  } finally {
    await home.cleanup();
    await h.close();
    await foreign.close();
  }
});

/** A platform whose device answer is hostile text; it refuses the first poll (access_denied). */
function hostileDevice(verificationComplete: string): Route {
  return (req, url, self) => {
    if (url.pathname === "/.well-known/openid-configuration") {
      return discoveryAt(self.url, `${self.url}/authentication/v2/device`);
    }
    if (url.pathname === "/authentication/v2/device") {
      void req.body?.cancel();
      return Response.json({
        device_code: "device-code-1234",
        user_code: "AB\x1b]0;pwned\x07CD\u202Eevil",
        verification_uri: `${self.url}/verify\x1b[2J`,
        verification_uri_complete: verificationComplete,
        expires_in: 30,
        interval: 1,
      });
    }
    if (url.pathname === "/authentication/v2/token") {
      void req.body?.cancel();
      return Response.json({ error: "access_denied" }, { status: 400 });
    }
    return undefined;
  };
}

Deno.test({
  name:
    "device login: codes and addresses of the platform are shown escaped; javascript: and file: never reach the opener",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const home = await makeHome();
    // An OS opener (xdg-open) that writes down what it was asked to open.
    const bin = path.join(home.dir, "bin");
    const opened = path.join(home.dir, "opened.txt");
    await Deno.mkdir(bin);
    await Deno.writeTextFile(path.join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`, {
      mode: 0o755,
    });
    try {
      for (const complete of ["javascript:alert(1)", "file:///etc/passwd"]) {
        await Deno.remove(opened).catch(() => {});
        const h = startHostile(hostileDevice(complete));
        try {
          const env = cliEnv(home, {
            DIAZO_BASE_URL: h.url,
            SVC_CLIENT_ID: "hostile-client",
            SVC_CLIENT_SECRET: "hostile-secret",
            PATH: `${bin}:${Deno.env.get("PATH") ?? ""}`,
          });
          const started = Date.now();
          const child = spawnChild(["auth", "login", "--device"], { env, cwd: home.cwd });
          const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
          const out = await child.output();
          clearTimeout(timer);
          const stderr = new TextDecoder().decode(out.stderr);
          assert.ok(Date.now() - started < 20_000, "the login ended");
          assert.equal(out.code, 3, stderr);
          // deno-lint-ignore no-control-regex
          assert.doesNotMatch(stderr, /[\x07\x1b\u202e]/, "no raw ESC, BEL or U+202E on stderr");
          assert.match(stderr, /enter the code AB\\e\]0;pwned\\aCD\\u202Eevil\n/);
          assert.match(stderr, /open http:\/\/127\.0\.0\.1:\d+\/verify\\e\[2J and/);
          assert.match(stderr, /\nerror: Authorization was refused \(access_denied\)\n/);
          // The opener got the http address only, never the other scheme.
          const asked = (await Deno.readTextFile(opened).catch(() => "")).trim().split("\n");
          assert.deepEqual(asked, [`${h.url}/verify%1B[2J`], `${complete}: ${asked}`);
        } finally {
          await h.close();
        }
      }
    } finally {
      await home.cleanup();
    }
  },
});
