/** Helpers of the login tests: `diazo auth login` run in process, its stderr watched for a URL. */
import { diazo, keyboard, type RunResult } from "./harness.ts";

/** A login under way: the URL it printed, its standard input, and its end. */
export interface Login {
  authorize: string;
  /** Types on the login's standard input (only with stdin "piped"). */
  type(text: string): void;
  /** Ends the login's standard input. */
  close(): void;
  /** The finished run. */
  done: Promise<RunResult>;
}

/**
 * Starts `diazo auth login ...`, waits until stderr shows a URL matching `pattern` (default: the
 * authorize URL) and returns it with the run. With stdin "null" the login reads end of input at once.
 */
export async function startLogin(
  args: string[],
  env: Record<string, string>,
  stdin: "piped" | "null" = "null",
  pattern = /(http:\/\/\S+\/authentication\/v2\/authorize\?\S+)/,
): Promise<Login> {
  // A person at a terminal logs in: a browser login refuses to wait without one (families/auth/login_user.ts).
  const kb = keyboard(stdin === "null" ? "" : undefined, true);
  let seen: (url: string) => void = () => {};
  const printed = new Promise<string>((resolve) => (seen = resolve));
  const done = diazo(["auth", "login", ...args], {
    env,
    stdin: kb,
    onStderr: (err) => {
      const url = pattern.exec(err)?.[1];
      if (url) seen(url);
    },
  });
  const ended = done.then((r) => {
    throw new Error(`login ended before printing the URL (exit ${r.code}):\n${r.stderr}`);
  });
  const authorize = await Promise.race([printed, ended]);
  ended.catch(() => {}); // the login goes on; its end is `done`
  return { authorize, type: kb.type, close: kb.close, done };
}
