/**
 * Hubs and projects by id or by name, for every command at once (README.md, "Hubs and projects by
 * name"). The one parser (parse.ts) leaves the value of an option or argument declared with `names`
 * as typed; before the command runs, `resolveNames` gives each its id: an absent option takes
 * DIAZO_HUB/DIAZO_PROJECT or the profile's `hub`/`project` (config/config.ts), an id is read by the
 * declaration's own `parse`, and a name is looked up in the hubs, or the projects of the hub(s), the
 * login sees (families/dm/names.ts). No name: no request.
 */
import {
  type ArgumentDecl,
  type CommandDecl,
  isNamedValue,
  type NameKind,
  type OptionDecl,
} from "../command/decl.ts";
import type { Ctx } from "../command/context.ts";
import { parseFlags } from "../command/global_options.ts";
import { isDiazoError, usageError } from "../core/errors.ts";
import type { HubId } from "../aps/ids.ts";
import { dmHubId } from "../aps/dm_ids.ts";
import type { Login } from "../families/dm/verbs.ts";
import type { Named } from "../families/dm/names.ts";

/** What `resolveNames` reads and fills: the parsed line's values (parse.ts). */
export interface NamedLine {
  chain: readonly CommandDecl[];
  args: unknown[];
  opts: Record<string, unknown>;
  own: Record<string, unknown>;
}

/** One value that names a hub or project: where it is, how it reads, and what it was given. */
interface Slot {
  kind: NameKind;
  /** `--project` or `<hub>`, as errors name it. */
  label: string;
  parse?: (value: string, previous: unknown) => unknown;
  /** The text typed, or of the default; undefined when there is none. */
  text?: string;
  /** Where a default came from (DIAZO_PROJECT, profile work), for errors. */
  from?: string;
  set(value: unknown): void;
}

/** The id an option's own parser gives, or undefined when `text` is not an id it reads. */
function asId(slot: Slot, text: string): unknown {
  try {
    return slot.parse ? slot.parse(text, undefined) : text;
  } catch (e) {
    if (isDiazoError(e) && looksLikeId(text)) throw e;
    return undefined;
  }
}

/** Whether the option's own parser reads `id` (a personal hub's `a.` id is no ACC account). */
function reads(slot: Slot, id: string): boolean {
  try {
    if (slot.parse) slot.parse(id, undefined);
    return true;
  } catch {
    return false;
  }
}

/** Text shaped as an id (`b.`, `a.`, a GUID, an address): its own error, never a name lookup. */
function looksLikeId(text: string): boolean {
  const t = text.trim();
  return /^[ab]\./.test(t) || /^https?:\/\//i.test(t) || /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(t);
}

/** The option and argument slots of the line whose declarations name a hub or project. */
function slotsOf(line: NamedLine): { slots: Slot[]; options: { decl: OptionDecl; slot: Slot }[] } {
  const slots: Slot[] = [];
  const options: { decl: OptionDecl; slot: Slot }[] = [];
  const seen = new Set<string>();
  for (const cmd of line.chain) {
    for (const decl of cmd.options ?? []) {
      if (!decl.names) continue;
      const { key, long } = parseFlags(decl.flags);
      // A group and its command may both declare the option (families/issue/commands.ts): one value.
      if (seen.has(key)) continue;
      seen.add(key);
      const given = line.opts[key];
      const slot: Slot = {
        kind: decl.names,
        label: long,
        parse: decl.parse,
        text: isNamedValue(given) ? given.text : undefined,
        set: (v) => {
          line.opts[key] = v;
          if (key in line.own || cmd === line.chain[line.chain.length - 1]) line.own[key] = v;
        },
      };
      slots.push(slot);
      options.push({ decl, slot });
    }
  }
  const leaf = line.chain[line.chain.length - 1];
  (leaf.args ?? []).forEach((a: ArgumentDecl, i) => {
    const given = line.args[i];
    if (!a.names || !isNamedValue(given)) return;
    slots.push({
      kind: a.names,
      label: `<${a.spec.replace(/[<>[\]]/g, "")}>`,
      parse: a.parse,
      text: given.text,
      set: (v) => line.args[i] = v,
    });
  });
  return { slots, options };
}

/** Where a default came from, in the words of `config list`. */
function sourceOf(s: { source: string; from?: string }, profile: string): string {
  return s.source === "profile"
    ? `profile ${profile}`
    : s.source === "dotenv"
    ? `.env ${s.from}`
    : s.from ?? s.source;
}

/** Fills the absent options from their defaults; a usage error for a required one without any. */
async function applyDefaults(ctx: Ctx, options: { decl: OptionDecl; slot: Slot }[], line: NamedLine) {
  const absent = options.filter(({ slot, decl }) =>
    slot.text === undefined && line.opts[parseFlags(decl.flags).key] === undefined
  );
  if (absent.length === 0) return;
  const settings = await ctx.settings();
  for (const { decl, slot } of absent) {
    const d = settings[slot.kind];
    if (d.value !== undefined) {
      slot.text = d.value;
      slot.from = sourceOf(d, settings.profileName);
    } else if (decl.required) {
      throw usageError(
        `required option '${decl.flags}' not specified`,
        `Add ${slot.label} <id or name>, or set a default: \`diazo config set ${slot.kind} <id or name>\` (or DIAZO_${slot.kind.toUpperCase()}).`,
      );
    }
  }
}

/**
 * The login of the lookups, as the command acts: `--as user|app` as told; a command without `--as` (the
 * construction-cloud records act only as the user) as the user; otherwise the user's when there is one.
 */
function loginOf(line: NamedLine): Login | undefined {
  const as = line.opts.as;
  if (as === "user" || as === "app") return as;
  const chooses = line.chain.some((c) => (c.options ?? []).some((o) => parseFlags(o.flags).long === "--as"));
  return chooses ? undefined : "user";
}

/**
 * The hub a project name is looked for in: the line's hub, else the default hub (DIAZO_HUB, the
 * profile's), read as an id or looked up by name; undefined for every hub the login sees.
 */
async function hubScope(
  line: readonly unknown[],
  ctx: Ctx,
  as: Login | undefined,
): Promise<HubId | undefined> {
  const id = line.find((v) => typeof v === "string");
  if (id !== undefined) return dmHubId(id as string);
  const settings = await ctx.settings();
  const d = settings.hub;
  if (d.value === undefined) return undefined;
  const slot: Slot = {
    kind: "hub",
    label: "--hub",
    parse: (v: string) => dmHubId(v),
    text: d.value,
    from: sourceOf(d, settings.profileName),
    set: () => {},
  };
  return (asId(slot, d.value) ?? await lookUp(slot, ctx, as, undefined)) as HubId;
}

/**
 * Gives every hub and project value of the line its id (module comment): hubs first, so that a project
 * name is looked for in the hub the line names (or the default hub).
 */
export async function resolveNames(line: NamedLine, ctx: Ctx): Promise<void> {
  const { slots, options } = slotsOf(line);
  if (slots.length === 0) return;
  await applyDefaults(ctx, options, line);
  const as = loginOf(line);
  const hubs: unknown[] = [];
  let scope: Promise<HubId | undefined> | undefined;
  for (const kind of ["hub", "project"] as const) {
    for (const slot of slots.filter((s) => s.kind === kind && s.text !== undefined)) {
      let id = asId(slot, slot.text!);
      if (id === undefined) {
        const hub = kind === "project" ? await (scope ??= hubScope(hubs, ctx, as)) : undefined;
        id = await lookUp(slot, ctx, as, hub);
      }
      slot.set(id);
      if (kind === "hub") hubs.push(id);
    }
  }
}

/** The id of the hub or project `slot` names by name; a usage error when none or several match. */
async function lookUp(slot: Slot, ctx: Ctx, as: Login | undefined, hub: HubId | undefined): Promise<unknown> {
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
