/**
 * Confirmation of final actions (deletes, overwrites, granting access, sending events to a URL, minting a
 * bearer URL): the human decides. When the client declares elicitation the server always asks the user
 * through it, and a `confirm: true` set by the model does not skip the question; `confirm: true` is only
 * read from clients that cannot ask their user.
 */
import { z } from "zod";
import { DiazoError } from "../core/errors.ts";
import { fieldError } from "../core/field_error.ts";
import type { ToolContext } from "./tool.ts";

/** The sentence the descriptions of tools that confirm carry (the guidance itself is in the instructions). */
export const DESTROYS =
  "The user confirms: a client with elicitation asks them (confirm is then ignored); otherwise ask the user and " +
  "pass confirm: true.";

/** The paragraph of the server's instructions on confirmation, said once for every tool that confirms. */
export const CONFIRM_INSTRUCTIONS =
  "Tools marked destructive (deletes, overwrites, granting access, sending events to a URL, minting a bearer URL) " +
  "are the user's decision: when this client supports elicitation the server asks the user itself and a " +
  "`confirm` argument changes nothing; when it does not, ask the user yourself and pass confirm: true.";

/** The `confirm` argument of a tool that confirms. */
export const confirmInput: z.ZodOptional<z.ZodBoolean> = z.boolean().optional().describe(
  "true once the user agreed; read only when the client cannot ask the user (no elicitation).",
);

/**
 * Resolves when the action may go ahead; "declined" (nothing changed) or a field error otherwise.
 * `final` words the refusal without elicitation: "undone" for a destruction, "grant" for anything else.
 */
export async function confirmed(
  ctx: ToolContext,
  confirm: boolean | undefined,
  question: string,
  final: "undone" | "grant" = "undone",
): Promise<void> {
  if (ctx.elicit) {
    // The human is asked whenever the client can ask; a model-supplied confirm does not bypass it.
    if (await ctx.elicit(question)) return;
    throw new DiazoError("failure", {
      params: { detail: "the user declined", hint: "Nothing was changed." },
    });
  }
  if (confirm === true) return;
  const why = final === "undone" ? "This cannot be undone" : "This is the user's decision";
  throw fieldError({
    field: "confirm",
    problem: `${question} ${why}: {confirm} must be true`,
    help: "Ask the user, then call again with {confirm}: true.",
  });
}
