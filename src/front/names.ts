/**
 * Hubs and projects by id or by name, for every command at once (README.md, "Hubs and projects by
 * name"). The one parser (parse.ts) leaves the value of an option or argument declared with `names`
 * as typed; before the command runs, `resolveNames` gives each its id: an absent option takes
 * DIAZO_HUB/DIAZO_PROJECT or the profile's `hub`/`project` (config/config.ts), an id is read by the
 * declaration's own `parse`, and a name is looked up in the hubs, or the projects of the hub(s), the
 * login sees (families/dm/names.ts; the lookup is names_lookup.ts, loaded for a name only). No name: no
 * request.
 */
import { type ArgumentDecl, type CommandDecl, isNamedValue, type OptionDecl } from "../command/decl.ts";
import type { Ctx } from "../command/context.ts";
import { parseFlags } from "../command/global_options.ts";
import { usageError } from "../core/errors.ts";
import type { HubId } from "../aps/ids.ts";
import type { Login } from "../families/dm/verbs.ts";
import { dmHubId } from "../aps/dm_ids.ts";
import { asId, type Slot } from "./name_slots.ts";

/** What `resolveNames` reads and fills: the parsed line's values (parse.ts). */
export interface NamedLine {
  chain: readonly CommandDecl[];
  args: unknown[];
  opts: Record<string, unknown>;
  own: Record<string, unknown>;
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
 * profile's), read as an id or looked up by name; undefined for every hub the login sees. It stays here,
 * not with the lookup: its `dmHubId` keeps aps/dm_ids.ts in the front door's chunk, which the families
 * that name hubs and projects load anyway (as a chunk of its own it cost `hub list` and `issue list` a
 * file, about 1 M instructions: ARCHITECTURE.md, "Start-up").
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
  return (asId(slot, d.value) ??
    await (await import("./names_lookup.ts")).lookUp(slot, ctx, as, undefined)) as HubId;
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
        id = await (await import("./names_lookup.ts")).lookUp(slot, ctx, as, hub); // a name, not an id
      }
      slot.set(id);
      if (kind === "hub") hubs.push(id);
    }
  }
}
