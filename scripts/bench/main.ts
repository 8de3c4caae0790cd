/** `deno task bench`: every benchmark, printed (never asserted). BENCH_ONLY=startup|transfer|batch|serve|pipeline|tests|hostile|soak-families|sandbox|soak picks one. */
import { benchBatch } from "./batch.ts";
import { benchPipeline } from "./pipeline.ts";
import { benchServe } from "./serve.ts";
import { benchSoak } from "./soak.ts";
import { benchStartup } from "./startup.ts";
import { benchTests } from "./tests.ts";
import { benchTransfer } from "./transfer.ts";

const only = Deno.env.get("BENCH_ONLY");
if (!only || only === "startup") await benchStartup();
if (!only || only === "transfer") await benchTransfer();
if (!only || only === "batch") await benchBatch();
if (!only || only === "serve") await benchServe();
if (!only || only === "pipeline") await benchPipeline();
if (!only || only === "tests") await benchTests();
if (!only || only === "reality") await (await import("./reality.ts")).benchReality();
if (!only || only === "hostile") await (await import("./hostile.ts")).benchHostile();
if (
  (!only || only === "soak-families") && !(await (await import("./soak_families.ts")).benchSoakFamilies())
) {
  Deno.exitCode = 1;
}
if (!only || only === "sandbox") await (await import("./sandbox_load.ts")).benchSandboxLoad();
if ((!only || only === "soak") && !(await benchSoak())) Deno.exitCode = 1;
