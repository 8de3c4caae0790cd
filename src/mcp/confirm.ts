/**
 * Confirmation of destructive tools: the client asks its user (elicitation) when it declares it can;
 * otherwise the call must carry `confirm: true`, which the model sets after asking the user itself.
 */
import { z } from "zod";
import { DiazoError } from "../core/errors.ts";
import { fieldError } from "../core/field_error.ts";
import type { ToolContext } from "./tool.ts";

/** The sentence destructive tools' descriptions carry. */
export const DESTROYS =
  "Irreversible: the client asks the user to confirm when it supports elicitation; otherwise ask the user " +
  "yourself and pass confirm: true.";

/** The `confirm` argument of a destructive tool. */
export const confirmInput: z.ZodOptional<z.ZodBoolean> = z.boolean().optional().describe(
  "true once the user agreed (needed when the client cannot ask the user itself).",
);

/** Resolves when the destruction may go ahead; a field error, or "declined", otherwise. */
export async function confirmed(
  ctx: ToolContext,
  confirm: boolean | undefined,
  question: string,
): Promise<void> {
  if (confirm === true) return;
  if (ctx.elicit) {
    if (await ctx.elicit(question)) return;
    throw new DiazoError("failure", {
      params: { detail: "the user declined", hint: "Nothing was changed." },
    });
  }
  throw fieldError({
    field: "confirm",
    problem: `${question} This cannot be undone: {confirm} must be true`,
    help: "Ask the user, then call again with {confirm}: true.",
  });
}
