/**
 * The webhooks emulator's delivery rules, driven directly (deliverEvent is awaited): which hooks
 * an event reaches (system, event pattern, app, filter, folder scope recursively, expiry), which secret
 * signs it, the payload-only body, and retries that make a hook inactive or a success that resets it.
 */
import assert from "node:assert/strict";
import { signWebhookBody } from "../../src/aps/webhook_signature.ts";
import { createClock } from "../../src/sandbox/clock.ts";
import type { SandboxEvent } from "../../src/sandbox/events.ts";
import { createSettings } from "../../src/sandbox/settings.ts";
import { deliverEvent } from "../../src/sandbox/webhooks/delivery.ts";
import {
  createWebhookStore,
  regionHooks,
  secretKey,
  type StoredHook,
} from "../../src/sandbox/webhooks/store.ts";

const ROOT = "urn:adsk.wipprod:fs.folder:co.root";
const SUB = "urn:adsk.wipprod:fs.folder:co.sub";

/** A receiver answering the statuses of `script` in turn (then the last one), recording each body. */
function receiver(script: number[]) {
  const got: { body: string; headers: Headers }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    got.push({ body: await req.text(), headers: req.headers });
    return new Response(null, { status: script[Math.min(got.length - 1, script.length - 1)] });
  });
  return { url: `http://127.0.0.1:${server.addr.port}/hook`, got, close: () => server.shutdown() };
}

function fixture() {
  const store = createWebhookStore();
  const settings = createSettings();
  Object.assign(settings, { webhookRetries: 2, webhookRetryDelayMs: 1, webhookFailureLimit: 2 });
  const deps = { clock: createClock(), settings };
  let n = 0;
  const add = (over: Partial<StoredHook> & { callbackUrl: string }): StoredHook => {
    const hook: StoredHook = {
      hookId: `hook-${++n}`,
      system: "data",
      event: "dm.version.added",
      scope: { folder: ROOT },
      region: "US",
      createdBy: "app-a",
      creatorType: "Application",
      clientId: "app-a",
      tenant: ROOT,
      createdMs: 0,
      updatedMs: 0,
      status: "active",
      autoReactivateHook: false,
      callbackWithEventPayloadOnly: false,
      failedEvents: 0,
      ...over,
    };
    regionHooks(store, hook.region).set(hook.hookId, hook);
    return hook;
  };
  return { store, deps, add, deliver: (e: SandboxEvent) => deliverEvent(store, e, deps) };
}

/** A version added in SUB (below ROOT), by app-a. */
const VERSION_ADDED: SandboxEvent = {
  system: "data",
  event: "dm.version.added",
  clientId: "app-a",
  scope: { folder: SUB },
  payload: {
    source: "urn:adsk.wipprod:fs.file:vf.x?version=1",
    parentFolderUrn: SUB,
    ancestors: [{ urn: ROOT, name: "Project Files" }, { urn: SUB, name: "sub" }],
  },
};

Deno.test("webhooks delivery: scope (folders recursively), event patterns, app, expiry and region decide who gets an event", async () => {
  const rx = receiver([200]);
  const fx = fixture();
  try {
    const wanted = [
      fx.add({ callbackUrl: rx.url }), // on the ancestor folder
      fx.add({ callbackUrl: rx.url, scope: { folder: SUB }, event: "dm.version.*", region: "EMEA" }),
    ];
    fx.add({ callbackUrl: rx.url, scope: { folder: "urn:adsk.wipprod:fs.folder:co.other" } });
    fx.add({ callbackUrl: rx.url, event: "dm.folder.added" });
    fx.add({ callbackUrl: rx.url, clientId: "app-b", createdBy: "app-b" });
    fx.add({ callbackUrl: rx.url, hookExpiry: "2000-01-01T00:00:00.000Z" });
    fx.add({ callbackUrl: rx.url, status: "inactive" });
    fx.add({ callbackUrl: rx.url, filter: "$[?(@.parentFolderUrn=='urn:other')]" }); // filtered out
    fx.add({ callbackUrl: rx.url, filter: JSON.stringify(["$[?(@.source)]", "$[?(@.version>=2)]"]) });
    wanted.push(fx.add({ callbackUrl: rx.url, filter: `$[?(@.parentFolderUrn=="${SUB}" || @.x==1)]` }));
    wanted.push(fx.add({ callbackUrl: rx.url, filter: "$..[?(@.unreadable)]" })); // not understood: passes
    await fx.deliver(VERSION_ADDED);
    const hookIds = rx.got.map((g) => JSON.parse(g.body).hook.hookId).sort();
    assert.deepEqual(hookIds, wanted.map((h) => h.hookId).sort());
    const body = JSON.parse(rx.got[0].body);
    assert.equal(body.version, "1.0");
    assert.equal(body.resourceUrn, VERSION_ADDED.payload.source);
    assert.deepEqual(body.payload, VERSION_ADDED.payload);
    assert.equal(rx.got[0].headers.get("x-adsk-signature"), null, "no secret, no signature");
    assert.deepEqual(
      fx.store.deliveries.map((d) => [d.ok, d.attempts, d.status]),
      wanted.map(() => [true, 1, 200]),
    );
  } finally {
    await rx.close();
  }
});

Deno.test("webhooks delivery: the hook's own secret wins over its owner's; payload-only bodies carry no hook", async () => {
  const rx = receiver([200]);
  const fx = fixture();
  try {
    fx.store.secrets.set(secretKey("US", "app-a"), "owner-secret");
    fx.add({ callbackUrl: rx.url });
    fx.add({ callbackUrl: rx.url, token: "hook-secret", callbackWithEventPayloadOnly: true });
    await fx.deliver(VERSION_ADDED);
    const [wrapped, bare] = [...rx.got].sort((a, b) => a.body.length - b.body.length).reverse();
    assert.equal(
      wrapped.headers.get("x-adsk-signature"),
      await signWebhookBody("owner-secret", wrapped.body),
    );
    assert.equal(bare.headers.get("x-adsk-signature"), await signWebhookBody("hook-secret", bare.body));
    assert.deepEqual(JSON.parse(bare.body), VERSION_ADDED.payload);
  } finally {
    await rx.close();
  }
});

Deno.test("webhooks delivery: retried failures count per event; at the limit the hook is inactive; a success resets the count", async () => {
  const failing = receiver([500]);
  const flaky = receiver([500, 200]);
  const fx = fixture();
  try {
    const bad = fx.add({ callbackUrl: failing.url });
    const recovers = fx.add({ callbackUrl: flaky.url, failedEvents: 1 });
    await fx.deliver(VERSION_ADDED);
    assert.equal(failing.got.length, 3, "one attempt and two retries");
    assert.deepEqual([bad.status, bad.failedEvents], ["active", 1]);
    assert.deepEqual([recovers.status, recovers.failedEvents], ["active", 0], "the retry succeeded");
    await fx.deliver(VERSION_ADDED);
    assert.deepEqual([bad.status, bad.failedEvents], ["inactive", 2]);
    const last = fx.store.deliveries.at(-1)!;
    assert.deepEqual([last.ok, last.attempts, last.status, last.error], [false, 3, 500, "answered HTTP 500"]);
    await fx.deliver(VERSION_ADDED);
    assert.equal(failing.got.length, 6, "an inactive hook gets nothing");

    const again = fx.add({ callbackUrl: failing.url, status: "reactivated" });
    await fx.deliver(VERSION_ADDED);
    assert.equal(failing.got.length, 7, "a reactivated hook gets one attempt");
    assert.equal(again.status, "inactive");
  } finally {
    await Promise.all([failing.close(), flaky.close()]);
  }
});
