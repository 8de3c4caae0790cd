/**
 * Errors about one input field, raised with the field's neutral name (the tool server's argument
 * name) and phrased by each surface: the CLI with its flags and commands, the tool server with its
 * arguments and tools (README "Serve": errors name what the caller typed).
 */
import { DiazoError, type FieldProblem, type NextStep } from "./errors.ts";

/** How a surface names fields and next steps. */
export interface Surface {
  /** A field's name, e.g. `--type` for the CLI, `issue_subtype_id` for a tool. */
  name(field: string): string;
  /** A next step, e.g. `` `diazo project list <hub>` `` or `the project_list tool`. */
  step(next: NextStep): string;
  /** Whether a message starts with the field's name (a tool's caller gets no flag to look at). */
  lead: boolean;
}

/** The phrasing of an error's own message: fields by their neutral names, next steps as commands. */
const PLAIN: Surface = { name: (f) => f, step: (n) => `\`${n.command}\``, lead: false };

/** The tool server's phrasing: argument names, tools as next steps, the field first. */
export const TOOL_SURFACE: Surface = {
  name: (f) => f,
  step: (n) => `the ${n.tool} tool`,
  lead: true,
};

/** The message and hint of a field problem in a surface's words. */
export function phraseField(p: FieldProblem, surface: Surface): { message: string; hint: string } {
  const names = (text: string) =>
    text.replace(/\{([a-z][a-z0-9_]*)\}/g, (_, f: string) => f === "step" ? "{step}" : surface.name(f));
  const problem = names(p.problem);
  const named = p.problem.includes(`{${p.field}}`);
  const message = surface.lead && !named ? `${surface.name(p.field)}: ${problem}` : problem;
  const parts: string[] = [];
  if (p.help) parts.push(names(p.help).replace("{step}", p.next ? surface.step(p.next) : "its list"));
  if (p.allowed?.length) parts.push(`Use one of: ${p.allowed.join(", ")}.`);
  const hint = parts.join(" ") || `Check ${surface.name(p.field)}.`;
  return { message, hint };
}

/** A usage error (exit 2) about one input field. */
export function fieldError(p: FieldProblem): DiazoError {
  const { message, hint } = phraseField(p, PLAIN);
  return new DiazoError("usage", { params: { detail: message, hint }, field: p });
}

/** An error's message and hint in a surface's words (a field problem rephrased, any other as it is). */
export function phrased(e: DiazoError, surface: Surface): { message: string; hint: string } {
  return e.field ? phraseField(e.field, surface) : { message: e.message, hint: e.hint };
}
