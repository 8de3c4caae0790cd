/** `.env` files: strict line validation, then node's parseEnv for the values. */
import { parseEnv } from "node:util";
import { DiazoError } from "../core/errors.ts";

const ASSIGNMENT = /^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_.-]*\s*=/;

/**
 * Parses a .env text. Every line must be blank, a comment or an assignment (a quoted value may span
 * lines); anything else is an error naming the file and line.
 */
export function parseDotenv(text: string, file = ".env"): Record<string, string> {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let openQuote: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (openQuote) {
      if (line.includes(openQuote)) openQuote = undefined;
      continue;
    }
    if (/^\s*(#.*)?$/.test(line)) continue;
    if (!ASSIGNMENT.test(line)) {
      throw new DiazoError("invalid_dotenv", {
        params: { file, line: i + 1, detail: `expected KEY=VALUE, found '${line.trim().slice(0, 40)}'` },
      });
    }
    const value = line.slice(line.indexOf("=") + 1).trimStart();
    const q = value[0];
    if ((q === '"' || q === "'" || q === "`") && !value.slice(1).includes(q)) openQuote = q;
  }
  if (openQuote) {
    throw new DiazoError("invalid_dotenv", {
      params: { file, line: lines.length, detail: `unterminated ${openQuote}-quoted value` },
    });
  }
  return { ...parseEnv(text) } as Record<string, string>;
}
