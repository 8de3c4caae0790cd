/**
 * The webhook delivery window: the sandbox waits the platform's 7 s for a callback's 2xx, and
 * diazo's help states both the platform's 7 s and the 5-second advice that `webhook test` keeps.
 */
import assert from "node:assert/strict";
import { PLATFORM_DELIVERY_WINDOW_MS, RECEIVER_ADVICE_MS } from "../../src/aps/webhook_events.ts";
import { runCommandTree } from "../../src/front/root.ts";
import { CALLBACK_BUDGET_MS } from "../../src/families/webhook/check.ts";
import { defaultWebhookConfig } from "../../src/sandbox/webhooks/settings.ts";
import { captureIo } from "../e2e/harness.ts";

Deno.test("webhook window: the sandbox waits 7 s, as the platform; webhook test keeps 5 s", () => {
  assert.equal(PLATFORM_DELIVERY_WINDOW_MS, 7000);
  assert.equal(defaultWebhookConfig().webhookTimeoutMs, 7000);
  assert.equal(RECEIVER_ADVICE_MS, 5000);
  assert.equal(CALLBACK_BUDGET_MS, 5000);
});

Deno.test("webhook window: the help of create and test states the platform's 7 s and the 5 s advice", async () => {
  for (const verb of ["create", "test"]) {
    const out = captureIo();
    assert.equal(await runCommandTree(["webhook", verb, "--help"], out.io, { NO_COLOR: "1" }, Deno.cwd()), 0);
    const help = out.stdout().replace(/\s+/g, " ");
    assert.match(help, /7 s/, `webhook ${verb}`);
    assert.match(help, /5 s/, `webhook ${verb}`);
  }
});
