/**
 * `diazo demo`: the main flow — bucket, generated model, multipart upload, translation, manifest,
 * metadata, properties, a derivative download, clean-up — against an in-process sandbox when no
 * credentials are configured.
 */
import path from "node:path";
import { parseBucketKey, parseObjectKey } from "../aps/ids.ts";
import { memoryTokenStore } from "../auth/token_store.ts";
import { twoLeggedToken } from "../auth/two_legged.ts";
import { generateModel } from "../generate/generate.ts";
import { writeChunksAtomic } from "../platform/fs.ts";
import {
  defaultView,
  downloadableDerivatives,
  getProperties,
  jobPayload,
  listViews,
  progressPercent,
  startJob,
  waitForJob,
} from "../services/derivative.ts";
import { downloadDerivative } from "../services/derivative_files.ts";
import { createBucket, deleteBucket } from "../services/oss.ts";
import { MIN_PART_SIZE, uploadFile } from "../services/upload.ts";
import { type AnyCommand, type ContextFactory, examples } from "./command.ts";
import type { Ctx } from "./context.ts";
import { SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET } from "./sandbox.ts";

interface Step {
  step: string;
  ok: boolean;
  ms: number;
  detail: string;
}

/** Size of the demo model: three parts of the platform's minimum, so the upload is multipart. */
const MODEL_BYTES = 12 * 1024 * 1024;

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

/** The names of the first few objects in a properties answer. */
function someObjects(props: unknown, n: number): { objectid: number; name: string }[] {
  const collection = (props as { data?: { collection?: { objectid: number; name: string }[] } })?.data
    ?.collection;
  // The root is the file itself and groups may repeat an object's name: show distinct elements.
  const seen = new Set<string>();
  return (collection ?? []).slice(1).filter((o) => !seen.has(o.name) && seen.add(o.name)).slice(0, n)
    .map((o) => ({ objectid: o.objectid, name: o.name }));
}

/** Runs the flow; returns the summary. */
async function runFlow(ctx: Ctx, opts: { keep?: boolean; sandbox: boolean }, steps: Step[]) {
  const total = opts.keep ? 7 : 8;
  const settings = await ctx.settings();
  ctx.info(`Platform: ${settings.baseUrl.value}`);
  const token = await step(ctx, steps, total, "Authenticate (2-legged)", async () => {
    const { token } = await twoLeggedToken({
      resolved: settings,
      store: await ctx.tokenStore(),
      authHttp: await ctx.http({ auth: "none" }),
    });
    return [token, `client ${token.client_id}, ${token.scopes.length} scopes`];
  });
  const http = await ctx.http();
  const bucket = parseBucketKey(`diazo-demo-${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 6)}`);
  const work = await Deno.makeTempDir({ prefix: "diazo-demo-" });
  try {
    await step(ctx, steps, total, "Create a bucket", async () => {
      const b = await createBucket(http, { bucketKey: bucket, policyKey: "transient", region: "US" });
      return [b, `${b.bucketKey} (${b.policyKey})`];
    });
    const modelFile = path.join(work, "tower.obj");
    const model = await step(ctx, steps, total, "Generate a model", async () => {
      const m = generateModel({ format: "obj", size: MODEL_BYTES, objects: 40 });
      await writeChunksAtomic(modelFile, m.chunks());
      return [m, `tower.obj: ${m.objects} elements, ${(m.size / 1048576).toFixed(0)} MiB`];
    });
    const uploaded = await step(ctx, steps, total, "Upload it (multipart, SHA-1 checked)", async () => {
      const r = await uploadFile(http, {
        bucketKey: bucket,
        objectKey: parseObjectKey("tower.obj"),
        file: modelFile,
        partSize: MIN_PART_SIZE,
        concurrency: settings.concurrency,
        stateDir: ctx.stateDir,
      });
      return [r, `${r.parts} parts, sha1 ${r.sha1.slice(0, 12)}…, urn ${r.urn.slice(0, 24)}…`];
    });
    const manifest = await step(ctx, steps, total, "Translate to SVF2 and OBJ (--wait)", async () => {
      await startJob(http, jobPayload(uploaded.urn, [{ type: "svf2", views: ["3d"] }, { type: "obj" }]));
      let last = -1;
      const m = await waitForJob(http, uploaded.urn, {
        pollBaseMs: opts.sandbox ? 250 : undefined,
        timeoutMs: (ctx.flags.timeout ?? 600) * 1000,
        onProgress: (mf) => {
          const pct = progressPercent(mf);
          if (pct !== last) ctx.info(`      ${mf.status} ${mf.progress}`);
          last = pct;
        },
      });
      const types = (m.derivatives ?? []).map((d) => `${d.outputType}:${d.status}`).join(", ");
      return [m, `status ${m.status}; derivatives ${types}`];
    });
    const properties = await step(ctx, steps, total, "Metadata and properties", async () => {
      const views = await listViews(http, uploaded.urn);
      const view = defaultView(views);
      if (!view) return [[], "no views"];
      const props = await getProperties(http, uploaded.urn, view.guid, {
        pollBaseMs: opts.sandbox ? 100 : undefined,
      });
      const some = someObjects(props, 3);
      return [some, `view ${view.name} (${view.guid.slice(0, 8)}…); ${some.map((o) => o.name).join(", ")} …`];
    });
    const derivative = await step(ctx, steps, total, "Download the OBJ derivative", async () => {
      const [file] = downloadableDerivatives(manifest, { outputType: "obj" });
      if (!file) return [undefined, "no OBJ derivative in the manifest"];
      const got = await downloadDerivative(http, uploaded.urn, file, { dir: path.join(work, "derivatives") });
      return [got, `${file.path}: ${got.size} bytes, sha1 ${got.sha1.slice(0, 12)}…`];
    });
    if (!opts.keep) {
      await step(ctx, steps, total, "Clean up (delete the bucket and local files)", async () => {
        await deleteBucket(http, bucket);
        return [undefined, bucket];
      });
    }
    return {
      client_id: token.client_id,
      bucket,
      object: {
        objectKey: uploaded.objectKey,
        size: uploaded.size,
        sha1: uploaded.sha1,
        parts: uploaded.parts,
      },
      urn: uploaded.urn,
      model: { format: model.format, objects: model.objects },
      manifest: {
        status: manifest.status,
        derivatives: (manifest.derivatives ?? []).map((d) => d.outputType),
      },
      properties,
      derivative: derivative ? { size: derivative.size, sha1: derivative.sha1 } : undefined,
      kept: Boolean(opts.keep),
    };
  } finally {
    if (opts.keep) ctx.info(`Kept bucket ${bucket} and the local files in ${work}`);
    else await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

/** Registers the demo command. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const cmd = program.command("demo")
    .description(
      "run the whole flow: bucket, generated model, multipart upload, translation, properties, derivative download, clean-up; uses the sandbox when no credentials are set",
    )
    .option("--sandbox", "use the in-process sandbox even when credentials are configured")
    .option("--keep", "leave the bucket and the local files in place")
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
        sandbox = await startSandbox({ port: 0 });
        ctx = outer.derive({
          env: {
            DIAZO_BASE_URL: sandbox.url,
            SVC_CLIENT_ID: SANDBOX_CLIENT_ID,
            SVC_CLIENT_SECRET: SANDBOX_CLIENT_SECRET,
          },
          tokenStore: memoryTokenStore(),
        });
      }
      const steps: Step[] = [];
      try {
        const summary = await runFlow(ctx, { keep: opts.keep, sandbox: Boolean(sandbox) }, steps);
        ctx.info(`Demo finished: ${steps.length} steps ok.`);
        const settings = await ctx.settings();
        // A table of a nested summary is unreadable: show the steps there, everything elsewhere.
        if ((await ctx.format()) === "table" && !ctx.flags.query) {
          await ctx.emit(steps, { columns: ["step", "ok", "ms", "detail"] });
        } else {await ctx.emit({
            base_url: settings.baseUrl.value,
            sandbox: Boolean(sandbox),
            ...summary,
            steps,
          });}
      } finally {
        await sandbox?.close();
      }
    });
  examples(cmd, ["diazo demo", "diazo demo --sandbox -o json", "diazo demo --keep"]);
}
