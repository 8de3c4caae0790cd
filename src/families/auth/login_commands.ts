/** `diazo auth login`: declared as data (command/decl.ts) over families/auth/login.ts. */
import type { LoginDeps } from "./login_shared.ts";
import type { CommandDecl } from "../../command/decl.ts";
import type { Ctx } from "../../command/context.ts";

/** The context as a login's deps: what to do to sign in goes on stderr, even with --quiet. */
export function loginDeps(ctx: Ctx): LoginDeps {
  return { ...ctx, tell: (text) => ctx.io.stderr.write(text), readLine: () => ctx.io.stdin.readLine() };
}

/** The options of `auth login`, by key. */
interface LoginOpts {
  "2legged"?: boolean;
  "3legged"?: boolean;
  scopes?: string;
  browser: boolean;
  device?: boolean;
  serviceAccount?: string;
  keyFile?: string;
  keyId?: string;
}

/** `auth login`. */
export const LOGIN: CommandDecl = {
  name: "login",
  description: "log in: 3-legged with PKCE in the browser (default), 2-legged, or as a service account",
  options: [
    { flags: "--3legged", description: "log in as a user (authorization code with PKCE)" },
    {
      flags: "--2legged",
      description: "use the app's own identity; stores the chosen --scopes in the profile",
    },
    { flags: "--scopes <list>", description: "scopes, comma or space separated" },
    {
      flags: "--no-browser",
      description: "print the URL and read the pasted redirect URL (or code) from stdin",
    },
    { flags: "--device", description: "device authorization (RFC 8628) where the platform offers it" },
    { flags: "--service-account <id>", description: "log in as a service account (JWT-bearer grant)" },
    { flags: "--key-file <pem>", description: "private key of the service account" },
    { flags: "--key-id <kid>", description: "id of the service account key" },
  ],
  examples: [
    "diazo auth login",
    "diazo auth login --no-browser --scopes data:read,account:read",
    "diazo auth login --2legged --scopes bucket:read,bucket:create,data:read",
    "diazo auth login --service-account SA_ID --key-file sa.pem",
  ],
  run: async (ctx, _args, opts: LoginOpts) => {
    // The login flows (and node: modules) load only for a login.
    const { runLogin } = await import("./login.ts");
    const { login, action } = await runLogin({
      twoLegged: Boolean(opts["2legged"]),
      threeLegged: Boolean(opts["3legged"]),
      scopes: opts.scopes,
      browser: opts.browser,
      device: opts.device,
      serviceAccount: opts.serviceAccount,
      keyFile: opts.keyFile,
      keyId: opts.keyId,
      timeoutSec: ctx.flags.timeout,
    }, loginDeps(ctx));
    await ctx.emit(login, { action });
  },
};
