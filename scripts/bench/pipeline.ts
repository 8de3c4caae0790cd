/**
 * Pipeline validation benchmark: files near the 1 MiB cap (src/core/input_file.ts) written in block style,
 * as one flow line and as JSON, each validated by the `yaml` library (src/pipeline/validate.ts); the time,
 * the problems found (none) and the process's resident memory before and after are printed.
 */
import { validatePipelineText } from "../../src/pipeline/validate.ts";
import { INPUT_LIMITS } from "../../src/core/input_file.ts";
import { commandTree } from "../../src/front/describe.ts";
import type { Io } from "../../src/command/io.ts";

const quiet: Io = {
  stdout: { write: () => {}, isTerminal: false },
  stderr: { write: () => {}, isTerminal: false },
  stdin: { isTerminal: false, readText: () => Promise.resolve(""), readLine: () => Promise.resolve(null) },
};

/** A valid pipeline of as many steps as fit under the cap, in `style`. */
function pipelineText(style: "block" | "flow" | "json"): { text: string; steps: number } {
  const cap = INPUT_LIMITS.pipeline - 1024;
  const step = (i: number) => ({ name: `s${i}`, id: `s${i}`, command: "bucket list --region US" });
  const render = (i: number) =>
    style === "block"
      ? `  - name: s${i}\n    id: s${i}\n    command: bucket list --region US\n`
      : style === "flow"
      ? `{name: s${i}, id: s${i}, command: bucket list --region US}, `
      : `${JSON.stringify(step(i), null, 2)},\n`;
  const parts: string[] = [];
  let size = 64;
  for (let i = 0; size + render(i).length < cap; i++) size += parts.push(render(i)) && render(i).length;
  const body = parts.join("");
  const text = style === "block"
    ? `name: big\nsteps:\n${body}`
    : style === "flow"
    ? `{name: big, steps: [${body.slice(0, -2)}]}\n`
    : `{"name": "big", "steps": [\n${body.slice(0, -2)}\n]}\n`;
  return { text, steps: parts.length };
}

/** Validates a pipeline near the cap in each style, printing the time and memory of each. */
export async function benchPipeline(): Promise<void> {
  const tree = await commandTree(quiet);
  console.log("pipeline validate, files near the 1 MiB cap (ms)");
  for (const style of ["block", "flow", "json"] as const) {
    const rssBefore = Deno.memoryUsage().rss;
    const { text, steps } = pipelineText(style);
    const t0 = performance.now();
    const { problems } = await validatePipelineText(text, { allowShell: false, tree, checkOnly: true });
    const ms = Math.round(performance.now() - t0);
    console.log(
      `  ${style}, ${steps} steps (${(text.length / 2 ** 20).toFixed(2)} MiB): ${ms} ms, ` +
        `${problems.length} problems, RSS ${mib(rssBefore)} -> ${mib(Deno.memoryUsage().rss)} MiB`,
    );
  }
}

function mib(bytes: number): number {
  return Math.round(bytes / 2 ** 20);
}
