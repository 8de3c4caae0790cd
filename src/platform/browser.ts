/** Opening a URL in the user's browser. */

/** The command that opens a URL on an OS (pure, for tests). */
export function openCommand(os: string, url: string): { cmd: string; args: string[] } {
  if (os === "darwin") return { cmd: "open", args: [url] };
  // `start` is a cmd builtin; the empty title argument keeps a quoted URL from becoming the title.
  if (os === "windows") {
    return { cmd: "cmd", args: ["/d", "/s", "/c", "start", '""', url.replace(/&/g, "^&")] };
  }
  return { cmd: "xdg-open", args: [url] };
}

/**
 * `url` as `URL` writes it when it is an http(s) address, else undefined: the OS opener would hand a
 * `javascript:`, `file:` or custom-scheme address (from a platform's answer) to whatever program
 * claims it, so only web addresses are opened.
 */
export function webAddress(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Tries to open `url`; false when no browser could be started, or when `url` is not an http(s)
 * address (`webAddress`): then nothing is started (the caller prints the URL).
 */
export async function openBrowser(url: string, os: string = Deno.build.os): Promise<boolean> {
  const web = webAddress(url);
  if (web === undefined) return false;
  const { cmd, args } = openCommand(os, web);
  try {
    const child = new Deno.Command(cmd, { args, stdin: "null", stdout: "null", stderr: "null" }).spawn();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const status = await Promise.race([
      child.status,
      new Promise<null>((r) => timer = setTimeout(() => r(null), 3000)),
    ]);
    clearTimeout(timer);
    return status === null || status.success;
  } catch {
    return false;
  }
}
