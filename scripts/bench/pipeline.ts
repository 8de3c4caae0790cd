/**
 * Pipeline validation benchmark: 20,000 and 200,000 steps, printed (linear means ~10x), and a flat file
 * at the 16 MiB size limit with the process's resident memory before and after (src/pipeline/block_yaml.ts).
 */
import { validatePipelineText } from "../../src/pipeline/validate.ts";
import { commandTree } from "../../src/front/describe.ts";
import type { Io } from "../../src/command/io.ts";

const quiet: Io = {
  stdout: { write: () => {}, isTerminal: false },
  stderr: { write: () => {}, isTerminal: false },
  stdin: { isTerminal: false, readText: () => Promise.resolve(""), readLine: () => Promise.resolve(null) },
};

function pipelineText(steps: number): string {
  const lines = ["name: big", "steps:"];
  for (let i = 0; i < steps; i++) {
    lines.push(`  - name: s${i}`, `    id: s${i}`, "    command: bucket list --region US");
  }
  return lines.join("\n") + "\n";
}

/** Validates pipelines of 20k and 200k steps and one near 16 MiB, printing the time (and memory) of each. */
export async function benchPipeline(): Promise<void> {
  const tree = await commandTree(quiet);
  console.log("pipeline validate (ms)");
  for (const steps of [20_000, 200_000, 235_000]) {
    const rssBefore = Deno.memoryUsage().rss;
    const text = pipelineText(steps);
    const t0 = performance.now();
    // The 16 MiB row checks only, as `pipeline validate` does (a run keeps every step's command words).
    const checkOnly = steps > 200_000;
    const { problems } = await validatePipelineText(text, { allowShell: false, tree, checkOnly });
    const ms = Math.round(performance.now() - t0);
    console.log(
      `  ${steps} steps${checkOnly ? ", check only" : ""} (${
        (text.length / 2 ** 20).toFixed(1)
      } MiB): ${ms} ms, ${problems.length} problems, ` +
        `RSS ${mib(rssBefore)} -> ${mib(Deno.memoryUsage().rss)} MiB`,
    );
  }
}

function mib(bytes: number): number {
  return Math.round(bytes / 2 ** 20);
}
