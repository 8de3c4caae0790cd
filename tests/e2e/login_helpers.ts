/** Helpers of the e2e login tests: a login child process whose stderr is watched for a URL. */
import { spawnChild } from "./harness.ts";

/**
 * Starts `diazo auth login ...`, waits until stderr shows a URL matching `pattern` (default: the
 * authorize URL), returns it and the child.
 */
export async function startLogin(
  args: string[],
  env: Record<string, string>,
  stdin: "piped" | "null" = "null",
  pattern = /(http:\/\/\S+\/authentication\/v2\/authorize\?\S+)/,
) {
  const child = spawnChild(["auth", "login", ...args], { env, stdin });
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let err = "";
  let authorize: string | undefined;
  while (!authorize) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`login ended before printing the URL:\n${err}`);
    err += value;
    authorize = pattern.exec(err)?.[1];
  }
  const rest = (async () => {
    while (true) {
      const { value, done } = await reader.read();
      if (done) return err;
      err += value;
    }
  })();
  return { child, authorize, stderr: rest };
}

/** Waits for the login to end: exit code, stdout and the whole stderr. */
export async function finish(child: Deno.ChildProcess, stderr: Promise<string>) {
  const [status, out, err] = await Promise.all([child.status, new Response(child.stdout).text(), stderr]);
  return { code: status.code, stdout: out, stderr: err };
}
