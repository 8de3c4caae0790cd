/** Shell-style splitting of one line into words (POSIX quoting rules, no expansion). */
import { usageError } from "../core/errors.ts";

/**
 * Splits `text` like a POSIX shell would (single quotes literal, double quotes with `\"` `\\` `\$`
 * escapes, backslash outside quotes), without variable or glob expansion. An unterminated quote is a
 * usage error naming `what`.
 */
export function splitShellWords(text: string, what = "command"): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let i = 0;
  const fail = (why: string) =>
    usageError(`${what} has ${why}: ${text}`, "Close every quote; quote a literal quote as \\\" or '\"'.");
  while (i < text.length) {
    const c = text[i];
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      i++;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw fail("an unterminated single quote");
      word += text.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      inWord = true;
      for (;;) {
        if (i >= text.length) throw fail("an unterminated double quote");
        const d = text[i];
        if (d === '"') break;
        if (d === "\\" && i + 1 < text.length && '"\\$`'.includes(text[i + 1])) {
          word += text[i + 1];
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
      i++;
    } else if (c === "\\") {
      if (i + 1 < text.length) word += text[i + 1];
      inWord = true;
      i += 2;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}
