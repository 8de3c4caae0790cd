/**
 * What the dashboard (`/_sandbox/ui`) shows, as one JSON answer (`/_sandbox/overview`): the newest
 * requests, each service's state in brief, the fault rules in force and the sandbox's own facts.
 */

import { humanBytes } from "../../core/output_human.ts";
import type { SandboxContext } from "../context.ts";

/** How many of the newest requests the overview carries. */
export const OVERVIEW_REQUESTS = 100;

function buckets(sb: SandboxContext) {
  return [...sb.oss.buckets.values()].sort((a, b) => a.bucketKey < b.bucketKey ? -1 : 1).map((b) => {
    const objects = sb.oss.objects.get(b.bucketKey)?.byKey;
    let bytes = 0;
    for (const o of objects?.values() ?? []) bytes += o.size;
    return {
      key: b.bucketKey,
      policy: b.policyKey,
      owner: b.bucketOwner,
      objects: objects?.size ?? 0,
      bytes,
      /** The bytes for a person: "3.0 MiB" (the one formatter of tables, core/output_human.ts). */
      size: humanBytes(bytes),
    };
  });
}

function hubs(sb: SandboxContext) {
  const world = sb.dm.world;
  const count = (m: Map<string, { projectId: string }>, projectId: string) => {
    let n = 0;
    for (const x of m.values()) if (x.projectId === projectId) n++;
    return n;
  };
  return [...world.hubs.values()].map((h) => ({
    id: h.id,
    name: h.name,
    projects: h.projectIds.map((id) => world.projects.get(id)!).map((p) => ({
      id: p.id,
      name: p.name,
      folders: count(world.folders, p.id),
      items: count(world.items, p.id),
      issues: sb.issues.projects.get(p.id.replace(/^b\./, ""))?.issues.size ?? 0,
    })),
  }));
}

function hooks(sb: SandboxContext) {
  const last = new Map(sb.webhooks.deliveries.map((d) => [d.hookId, d]));
  return [...sb.webhooks.hooks.values()].flatMap((m) => [...m.values()]).map((h) => {
    const d = last.get(h.hookId);
    return {
      hook_id: h.hookId,
      event: `${h.system}/${h.event}`,
      callback_url: h.callbackUrl,
      status: h.status,
      ...(d ? { last_delivery: { status: d.status, ok: d.ok, attempts: d.attempts, error: d.error } } : {}),
    };
  });
}

/** The dashboard's data. */
export function overview(sb: SandboxContext) {
  return {
    uptime_seconds: Math.floor((Date.now() - sb.startedMs) / 1000),
    data_dir: sb.durable ? sb.dataDir : null,
    snapshots: sb.snapshots.list(),
    requests: sb.requests.recent(OVERVIEW_REQUESTS),
    services: {
      apps: [...sb.auth.apps.keys()],
      buckets: buckets(sb),
      hubs: hubs(sb),
      hooks: hooks(sb),
      translations: sb.derivative.manifests.size,
      work_items: sb.da.workItems.size,
      photoscenes: sb.reality.scenes.size,
    },
    faults: sb.faults.list(),
  };
}
