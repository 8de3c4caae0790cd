import assert from "node:assert/strict";
import { testSigningKey } from "../e2e/test_sandbox.ts";
import { createSandboxContext } from "../../src/sandbox/context.ts";
import { createRequestHandler } from "../../src/sandbox/middleware.ts";

const info = {
  remoteAddr: { transport: "tcp", hostname: "127.0.0.1", port: 40000 },
  completed: Promise.resolve(),
} as unknown as Deno.ServeHandlerInfo<Deno.NetAddr>;

Deno.test("middleware: a handler that throws answers 500 JSON and the next request is served", async () => {
  const sandbox = createSandboxContext([await testSigningKey()], "");
  const lines: string[] = [];
  const handle = createRequestHandler(sandbox, {
    routes: [[
      { method: "GET", pattern: "/boom", scopes: [], handler: () => Promise.reject(new Error("kaput")) },
      { method: "GET", pattern: "/fine", scopes: [], handler: () => Response.json({ fine: true }) },
    ]],
    connections: { drop: () => true, closeIdle: () => {} },
    log: (l) => lines.push(l),
  });
  const boom = await handle(new Request("http://sandbox.test/boom"), info);
  assert.equal(boom.status, 500);
  assert.ok(boom.headers.get("content-type")?.startsWith("application/json"));
  const body = await boom.json();
  assert.equal(body.errorCode, "SANDBOX-500");
  assert.match(body.developerMessage, /kaput/);
  const fine = await handle(new Request("http://sandbox.test/fine"), info);
  assert.equal(fine.status, 200);
  assert.deepEqual(await fine.json(), { fine: true });
  assert.deepEqual(sandbox.requests.list().map((e) => [e.path, e.status]), [["/boom", 500], ["/fine", 200]]);
  assert.match(lines[0], /^GET \/boom 500 \d+ms error: kaput$/);
});
