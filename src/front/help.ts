/**
 * The layout of help pages, in the layout people know from commander-style tools: terms padded to the
 * longest, descriptions wrapped at the help width, and a command's usage line (which a usage error
 * names too). command_help.ts draws a command's page, root_help.ts the program's.
 */
import type { ArgumentDecl, CommandDecl } from "../command/decl.ts";

/** Below this many columns for a description, text is not wrapped. */
const MIN_WIDTH_TO_WRAP = 40;

/** Word wrap: whitespace-separated chunks packed into `width` columns, existing line breaks kept. */
export function boxWrap(text: string, width: number): string {
  if (width < MIN_WIDTH_TO_WRAP) return text;
  const lines: string[] = [];
  for (const raw of text.split(/\r\n|\n/)) {
    const chunks = raw.match(/[\s]*[^\s]+/g);
    if (chunks === null) {
      lines.push("");
      continue;
    }
    let line = chunks.shift()!;
    for (const chunk of chunks) {
      if (line.length + chunk.length <= width) line += chunk;
      else {
        lines.push(line);
        line = chunk.trimStart();
      }
    }
    lines.push(line);
  }
  return lines.join("\n");
}

/** One "  term  description" item, the description wrapped beside the padded term. */
export function helpItem(term: string, termWidth: number, description: string, helpWidth: number): string {
  if (!description) return "  " + term;
  const remaining = helpWidth - termWidth - 2 - 2;
  const text = remaining < MIN_WIDTH_TO_WRAP || /\n[^\S\r\n]/.test(description)
    ? description
    : boxWrap(description, remaining).replace(/\n/g, "\n" + " ".repeat(termWidth + 2));
  return "  " + term.padEnd(termWidth) + "  " + text.replace(/\n/g, "\n  ");
}

/** An argument as usage shows it: `<name>`, `[name]`, `<name...>`. */
export function argumentUsage(a: ArgumentDecl): string {
  return a.spec;
}

/** The argument's name without brackets or dots. */
export function argumentName(a: ArgumentDecl): string {
  return a.spec.replace(/[<>[\]]|\.\.\./g, "");
}

/** Whether a group lists the implicit `help [command]` (it has subcommands and runs nothing itself). */
export function hasHelpCommand(c: CommandDecl): boolean {
  return (c.commands ?? []).length > 0 && !c.run;
}

/** The usage line of the command at the end of `chain` (the program first): `Usage: diazo bucket create [options]`. */
export function usageLine(chain: readonly CommandDecl[]): string {
  const cmd = chain[chain.length - 1];
  const subs = (cmd.commands ?? []).filter((c) => !c.hidden);
  const usage = ["[options]", ...(subs.length ? ["[command]"] : []), ...(cmd.args ?? []).map(argumentUsage)];
  const names = chain.slice(0, -1).map((c) => c.name);
  const own = cmd.name + (cmd.aliases?.[0] ? "|" + cmd.aliases[0] : "");
  return `Usage: ${[...names, own].join(" ")} ${usage.join(" ")}`;
}
