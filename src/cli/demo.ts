/** `diazo demo`: the main flow, against an in-process sandbox when no credentials are configured. */
import { memoryTokenStore } from "../auth/token_store.ts";
import { twoLeggedToken } from "../auth/two_legged.ts";
import { createBucket, deleteBucket, listBuckets } from "../services/oss.ts";
import { type AnyCommand, type ContextFactory, examples } from "./command.ts";
import type { Ctx } from "./context.ts";
import { SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET } from "./sandbox.ts";

interface Step {
  step: string;
  ok: boolean;
  ms: number;
  detail: string;
}

async function step<T>(
  ctx: Ctx,
  steps: Step[],
  total: number,
  name: string,
  fn: () => Promise<[T, string]>,
): Promise<T> {
  const t0 = performance.now();
  ctx.info(`[${steps.length + 1}/${total}] ${name} ...`);
  try {
    const [value, detail] = await fn();
    const ms = Math.round(performance.now() - t0);
    steps.push({ step: name, ok: true, ms, detail });
    ctx.info(`      ok  ${detail} (${ms} ms)`);
    return value;
  } catch (e) {
    steps.push({
      step: name,
      ok: false,
      ms: Math.round(performance.now() - t0),
      detail: (e as Error).message,
    });
    throw e;
  }
}

/** Registers the demo command. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const cmd = program.command("demo")
    .description(
      "authenticate, create a bucket, list buckets and clean up; uses the sandbox when no credentials are set",
    )
    .option("--sandbox", "use the in-process sandbox even when credentials are configured")
    .option("--keep", "leave the demo bucket in place")
    .action(async (opts, command) => {
      const outer = makeCtx(command);
      const resolved = await outer.settings();
      let ctx = outer;
      let sandbox: { url: string; close(): Promise<void> } | undefined;
      if (opts.sandbox || !resolved.clientId.value || !resolved.clientSecret.value) {
        outer.info(
          "No credentials configured: running against an in-process sandbox (no account, no network needed).",
        );
        const { startSandbox } = await import("../sandbox/server.ts");
        const sb = await startSandbox({ port: 0 });
        sandbox = sb;
        ctx = outer.derive({
          env: {
            DIAZO_BASE_URL: sb.url,
            SVC_CLIENT_ID: SANDBOX_CLIENT_ID,
            SVC_CLIENT_SECRET: SANDBOX_CLIENT_SECRET,
          },
          tokenStore: memoryTokenStore(),
        });
      }
      const steps: Step[] = [];
      const total = opts.keep ? 3 : 4;
      try {
        const settings = await ctx.settings();
        ctx.info(`Platform: ${settings.baseUrl.value}`);
        const token = await step(ctx, steps, total, "Authenticate (2-legged)", async () => {
          const { token } = await twoLeggedToken({
            resolved: settings,
            store: await ctx.tokenStore(),
            authHttp: await ctx.http({ auth: "none" }),
          });
          return [
            token,
            `client ${token.client_id}, ${token.scopes.length} scopes, expires ${
              new Date(token.expires_at).toISOString()
            }`,
          ];
        });
        const http = await ctx.http();
        const key = `diazo-demo-${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 6)}`;
        await step(ctx, steps, total, "Create a bucket", async () => {
          const b = await createBucket(http, { bucketKey: key, policyKey: "transient", region: "US" });
          return [b, `${b.bucketKey} (${b.policyKey})`];
        });
        const buckets = await step(ctx, steps, total, "List buckets (every page)", async () => {
          const items = [];
          for await (const b of listBuckets(http, { region: "US" })) items.push(b);
          return [
            items,
            `${items.length} bucket(s): ${items.map((b) => b.bucketKey).slice(0, 5).join(", ")}`,
          ];
        });
        if (!opts.keep) {
          await step(ctx, steps, total, "Delete the demo bucket", async () => {
            await deleteBucket(http, key);
            return [undefined, key];
          });
        }
        ctx.info(`Demo finished: ${steps.length} steps ok.`);
        const summary = {
          base_url: settings.baseUrl.value,
          sandbox: Boolean(sandbox),
          client_id: token.client_id,
          bucket: key,
          buckets,
          steps,
        };
        // A table of a nested summary is unreadable: show the steps there, everything elsewhere.
        if ((await ctx.format()) === "table" && !ctx.flags.query) {
          await ctx.emit(steps, { columns: ["step", "ok", "ms", "detail"] });
        } else await ctx.emit(summary);
      } finally {
        await sandbox?.close();
      }
    });
  examples(cmd, ["diazo demo", "diazo demo --sandbox -o json"]);
}
