/**
 * `extraction.finished`: when a translation started with `misc.workflow` ends,
 * the derivative system announces it on the sandbox's event bus, once per set of derivative jobs,
 * for the hooks scoped to that workflow. It ends when the manifest first shows it done: when its
 * work settles after its time is up, when its time runs out (a timer, cut short when the sandbox
 * stops or resets), or when a manifest read sees it done after the clock was moved forward.
 */

import type { SandboxContext } from "../context.ts";
import { nowMs } from "../clock.ts";
import { abortableSleep } from "../../core/sleep.ts";
import { manifestState } from "./jobs.ts";
import type { Translation } from "./store.ts";

/** The derivative jobs each translation was last announced for. */
const announced = new WeakMap<Translation, string>();

function jobsKey(tr: Translation): string {
  return tr.derivatives.map((d) => d.guid).join(",");
}

/** Publishes `extraction.finished` for `tr` when it has a workflow, is done and was not announced yet. */
export function announceIfDone(sb: SandboxContext, tr: Translation): void {
  if (!tr.workflow || sb.derivative.manifests.get(tr.urn) !== tr) return;
  const now = nowMs(sb.clock);
  const state = manifestState(tr, now);
  if (state.status !== "success" && state.status !== "failed") return;
  const key = jobsKey(tr);
  if (announced.get(tr) === key) return;
  announced.set(tr, key);
  sb.events.publish({
    system: "derivative",
    event: "extraction.finished",
    scope: { workflow: tr.workflow },
    payload: {
      TimeStamp: now,
      URN: tr.urn,
      EventType: "EXTRACTION_FINISHED",
      Payload: { status: state.status, scope: tr.workflow },
    },
  });
}

/** Announces `tr` once `work` (its derivatives being written) settles and its time is up. */
export async function announceWhenDone(
  sb: SandboxContext,
  tr: Translation,
  work: Promise<unknown>,
): Promise<void> {
  if (!tr.workflow) return;
  const stop = sb.webhooks.signal;
  await work;
  const due = Math.max(0, ...tr.derivatives.map((d) => d.createdMs + d.durationMs));
  await abortableSleep(due - nowMs(sb.clock), stop);
  if (!stop.aborted) announceIfDone(sb, tr);
}
