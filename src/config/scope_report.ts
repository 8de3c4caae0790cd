/** The reading of the scope-usage log (scope_usage.ts) for the `auth` reports: periods, records, totals. */
import { usageError } from "../core/errors.ts";
import { scopeUsageFile, type ScopeUse } from "./scope_usage.ts";

/** Parses a period such as `7d`, `12h`, `30m` into milliseconds. */
export function parsePeriod(text: string): number {
  const m = /^(\d+)\s*([dhm])$/.exec(text.trim());
  if (!m || Number(m[1]) === 0) {
    throw usageError(`invalid period '${text}'`, "Use a number and a unit: 7d, 12h or 30m.");
  }
  return Number(m[1]) * { d: 86_400_000, h: 3_600_000, m: 60_000 }[m[2] as "d" | "h" | "m"];
}

/** Records since `sinceMs` (epoch ms); lines that do not parse are skipped. */
export async function readScopeUses(stateDir: string, sinceMs: number): Promise<ScopeUse[]> {
  let text = "";
  try {
    text = await Deno.readTextFile(scopeUsageFile(stateDir));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
  const out: ScopeUse[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const u = JSON.parse(line) as ScopeUse;
      if (Date.parse(u.time) >= sinceMs) out.push(u);
    } catch { /* a torn line from a crash: skip it */ }
  }
  return out;
}

/** Per-scope totals: how often, by which commands, last use; plus granted scopes never used. */
export function summarise(uses: readonly ScopeUse[], granted: readonly string[]) {
  const by = new Map<string, { scope: string; uses: number; commands: Set<string>; last: string }>();
  for (const u of uses) {
    for (const s of u.scopes) {
      const e = by.get(s) ?? { scope: s, uses: 0, commands: new Set<string>(), last: u.time };
      e.uses++;
      e.commands.add(u.command);
      if (u.time > e.last) e.last = u.time;
      by.set(s, e);
    }
  }
  const used = [...by.values()].sort((a, b) => b.uses - a.uses || a.scope.localeCompare(b.scope))
    .map((e) => ({ scope: e.scope, uses: e.uses, commands: [...e.commands].sort(), last_used: e.last }));
  return { used, unused_granted: granted.filter((s) => !by.has(s)).sort() };
}
