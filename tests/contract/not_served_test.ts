/**
 * Contract of the official files of services the sandbox does not emulate at all (construction
 * issues): every operation is probed to prove it is not served, so emulating one later
 * without exercising it here fails.
 */

import { type NotServed, runPlan } from "./contract.ts";
import { loadSpec } from "./spec.ts";

/** Every operation of `file`, each marked not served for `why`. */
async function allNotServed(file: string, why: string): Promise<Record<string, NotServed>> {
  const spec = await loadSpec(file);
  return Object.fromEntries([...spec.operations.keys()].map((op) => [op, { notServed: why }]));
}

for (
  const [file, why] of [
    ["construction/issues/Issues.yaml", "construction issues are not emulated: diazo has no issues commands"],
  ]
) {
  Deno.test(`contract: ${file.split("/").at(-1)}`, async () => {
    await runPlan({ file, setup: () => Promise.resolve({}), ops: await allNotServed(file, why) });
  });
}
