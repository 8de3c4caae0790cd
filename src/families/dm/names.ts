/**
 * Hubs and projects found by name (README.md, "Hubs and projects by name"): the hubs a login sees and
 * the projects of a hub, each listed once per run (every page, by families/dm/api.ts), and the rule
 * that picks one by its name: exact (case-insensitive), else the one name it begins.
 */
import type { HubId } from "../../aps/ids.ts";
import { editDistance } from "../../core/suggest.ts";
import type { OpsDeps } from "../../session/deps.ts";
import { listHubs, listProjects } from "./api.ts";
import { dmHttp, type Login } from "./verbs.ts";

/** A hub or project: its id and its name. */
export interface Named {
  id: string;
  name: string;
}

/** What a name picks among candidates. */
export type NameMatch =
  | { kind: "one"; match: Named }
  | { kind: "many"; matches: Named[] }
  | { kind: "none"; close?: string };

/** The listings of one run and one login: the hubs, and the projects of each hub asked for. */
interface Listings {
  hubs?: Promise<Named[]>;
  projects: Map<string, Promise<Named[]>>;
}

/** Listings per run (its deps) and login: kept for the run only, never on disk. */
const runs = new WeakMap<OpsDeps, Map<string, Listings>>();

function listings(deps: OpsDeps, as: Login | undefined): Listings {
  let byLogin = runs.get(deps);
  if (!byLogin) runs.set(deps, byLogin = new Map());
  const key = as ?? "auto";
  let found = byLogin.get(key);
  if (!found) byLogin.set(key, found = { projects: new Map() });
  return found;
}

function named(items: readonly { id: string; attributes: Record<string, unknown> }[]): Named[] {
  return items.map((r) => ({ id: r.id, name: String(r.attributes.name ?? "") }));
}

/** The hubs the login sees (one listing per run). */
export function hubsNamed(deps: OpsDeps, as?: Login): Promise<Named[]> {
  const l = listings(deps, as);
  return l.hubs ??= (async () => named((await listHubs(await dmHttp(deps, { as }))).items))();
}

/** The projects of `hub`, every page (one listing per hub and run). */
export function projectsNamed(deps: OpsDeps, hub: HubId, as?: Login): Promise<Named[]> {
  const l = listings(deps, as);
  let found = l.projects.get(hub);
  if (!found) {
    found = (async () => named((await listProjects(await dmHttp(deps, { as }), hub)).items))();
    l.projects.set(hub, found);
  }
  return found;
}

/** The candidate whose name (or the start of it) is closest to `text`, within a third of its length. */
function closest(text: string, candidates: readonly Named[]): string | undefined {
  let best: string | undefined;
  let bestD = Math.max(1, Math.floor(text.length / 3)) + 1;
  for (const c of candidates) {
    const name = c.name.toLowerCase();
    const d = Math.min(editDistance(text, name), editDistance(text, name.slice(0, text.length)));
    if (d < bestD) [best, bestD] = [c.name, d];
  }
  return best;
}

/** The candidate `text` names: exact name (case-insensitive), else the only name it begins; or the ones it could be. */
export function matchName(text: string, candidates: readonly Named[]): NameMatch {
  const t = text.trim().toLowerCase();
  const exact = candidates.filter((c) => c.name.trim().toLowerCase() === t);
  const found = exact.length ? exact : candidates.filter((c) => c.name.trim().toLowerCase().startsWith(t));
  if (t !== "" && found.length === 1) return { kind: "one", match: found[0] };
  if (t !== "" && found.length > 1) return { kind: "many", matches: found };
  return { kind: "none", close: t === "" ? undefined : closest(t, candidates) };
}
