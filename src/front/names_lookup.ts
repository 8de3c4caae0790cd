/**
 * Hubs and projects by name (README.md, "Hubs and projects by name"): the lookup of a value that is
 * no id in the hubs, or the projects of the hub(s), the login sees (families/dm/names.ts). Loaded only
 * when a line names a hub or project by name (front/names.ts).
 */
import type { Ctx } from "../command/context.ts";
import { usageError } from "../core/errors.ts";
import type { HubId } from "../aps/ids.ts";
import type { Login } from "../families/dm/verbs.ts";
import type { Named } from "../families/dm/names.ts";
import { asId, type Slot } from "./name_slots.ts";

/** Whether the option's own parser reads `id` (a personal hub's `a.` id is no ACC account). */
function reads(slot: Slot, id: string): boolean {
  try {
    if (slot.parse) slot.parse(id, undefined);
    return true;
  } catch {
    return false;
  }
}

/** The id of the hub or project `slot` names by name; a usage error when none or several match. */
export async function lookUp(
  slot: Slot,
  ctx: Ctx,
  as: Login | undefined,
  hub: HubId | undefined,
): Promise<unknown> {
  const { hubsNamed, projectsNamed, matchName } = await import("../families/dm/names.ts");
  const text = slot.text!.trim();
  const where = slot.from ? ` (the default from ${slot.from})` : "";
  const all = slot.kind === "hub"
    ? await hubsNamed(ctx, as)
    : await projectsOf(ctx, as, hub, projectsNamed, hubsNamed);
  const fits = all.filter((c) => reads(slot, c.id));
  const m = matchName(text, fits);
  const list = slot.kind === "hub"
    ? "`diazo hub list`"
    : hub
    ? `\`diazo project list ${hub}\``
    : "`diazo dm projects`";
  if (m.kind === "one") return asId(slot, m.match.id);
  if (m.kind === "many") {
    const shown = m.matches.slice(0, 10).map((c) => `${c.name} (${c.id})`).join(", ");
    const more = m.matches.length > 10 ? ` and ${m.matches.length - 10} more` : "";
    throw usageError(
      `${slot.label} '${text}'${where} matches ${m.matches.length} ${slot.kind}s: ${shown}${more}`,
      `Give more of the name, or the id, e.g. ${slot.label.startsWith("<") ? "" : `${slot.label} `}${
        m.matches[0].id
      }; ${list} lists them.`,
    );
  }
  const scope = slot.kind === "project" && hub ? ` in hub ${hub}` : "";
  throw usageError(
    `no ${slot.kind} named '${text}'${scope}${where}`,
    `${m.close ? `Did you mean '${m.close}'? ` : ""}List them with ${list}.`,
  );
}

type ProjectsNamed = (deps: Ctx, hub: HubId, as?: Login) => Promise<Named[]>;
type HubsNamed = (deps: Ctx, as?: Login) => Promise<Named[]>;

/**
 * The projects a name is looked for in: those of `hub`, else of every hub the login sees (a hub whose
 * projects cannot be listed is left out, unless every one fails).
 */
async function projectsOf(
  ctx: Ctx,
  as: Login | undefined,
  hub: HubId | undefined,
  projectsNamed: ProjectsNamed,
  hubsNamed: HubsNamed,
): Promise<Named[]> {
  if (hub) return await projectsNamed(ctx, hub, as);
  const hubs = await hubsNamed(ctx, as);
  const lists = await Promise.allSettled(hubs.map((h) => projectsNamed(ctx, h.id as HubId, as)));
  const done = lists.flatMap((r) => r.status === "fulfilled" ? [r.value] : []);
  const failed = lists.find((r) => r.status === "rejected");
  if (done.length === 0 && failed) throw failed.reason;
  return done.flat();
}
