/**
 * The AWS CLI's legacy JMESPath literal: a backtick literal that is not JSON (`` `persistent` ``)
 * is read as the string it holds, as the AWS CLI's jmespath library still does. Standard JMESPath
 * refuses it, so such literals are rewritten into their JSON form (`` `"persistent"` ``) before the
 * expression is compiled; every valid expression is left exactly as it was.
 */

/** The expression with each non-JSON backtick literal rewritten as a JSON string literal. */
export function legacyLiterals(expression: string): string {
  let out = "";
  let i = 0;
  while (i < expression.length) {
    const c = expression[i];
    if (c === "'" || c === '"') {
      const end = closing(expression, i);
      out += expression.slice(i, end + 1);
      i = end + 1;
    } else if (c === "`") {
      const end = closing(expression, i);
      if (end >= expression.length) return expression; // unterminated: let the parser say so
      out += "`" + literalJson(expression.slice(i + 1, end)) + "`";
      i = end + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The index of the quote that closes the one at `start` (a backslash escapes), or the length. */
function closing(s: string, start: number): number {
  const quote = s[start];
  for (let j = start + 1; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === quote) return j;
  }
  return s.length;
}

/** A literal's body unchanged when it is JSON, else the JSON string of its text (escaped for backticks). */
function literalJson(body: string): string {
  const text = body.replaceAll("\\`", "`");
  try {
    JSON.parse(text);
    return body;
  } catch {
    // as the AWS CLI does: the text, leading blanks dropped, as the body of a JSON string
    try {
      const value = JSON.parse(`"${text.trimStart()}"`) as string;
      return JSON.stringify(value).replaceAll("`", "\\`");
    } catch {
      return body;
    }
  }
}
