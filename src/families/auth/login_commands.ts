/** `diazo auth login`: the commander adapter over families/auth/login.ts. */
import { runLogin } from "./login.ts";
import type { LoginDeps } from "./login_shared.ts";
import { type AnyCommand, type ContextFactory, examples } from "../../command/command.ts";
import type { Ctx } from "../../command/context.ts";

/** The context as a login's deps: what to do to sign in goes on stderr, even with --quiet. */
export function loginDeps(ctx: Ctx): LoginDeps {
  return { ...ctx, tell: (text) => ctx.io.stderr.write(text), readLine: () => ctx.io.stdin.readLine() };
}

/** Registers `auth login` on the auth command. */
export function registerLogin(auth: AnyCommand, makeCtx: ContextFactory): void {
  const login = auth.command("login")
    .description("log in: 3-legged with PKCE in the browser (default), 2-legged, or as a service account")
    .option("--3legged", "log in as a user (authorization code with PKCE)")
    .option("--2legged", "use the app's own identity; stores the chosen --scopes in the profile")
    .option("--scopes <list>", "scopes, comma or space separated")
    .option("--no-browser", "print the URL and read the pasted redirect URL (or code) from stdin")
    .option("--device", "device authorization (RFC 8628) where the platform offers it")
    .option("--service-account <id>", "log in as a service account (JWT-bearer grant)")
    .option("--key-file <pem>", "private key of the service account")
    .option("--key-id <kid>", "id of the service account key")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const o = opts as Record<string, unknown>;
      const { login, action } = await runLogin({
        twoLegged: Boolean(o["2legged"]),
        threeLegged: Boolean(o["3legged"]),
        scopes: opts.scopes,
        browser: opts.browser,
        device: opts.device,
        serviceAccount: opts.serviceAccount,
        keyFile: opts.keyFile,
        keyId: opts.keyId,
        timeoutSec: ctx.flags.timeout,
      }, loginDeps(ctx));
      await ctx.emit(login, { action });
    });
  examples(login, [
    "diazo auth login",
    "diazo auth login --no-browser --scopes data:read,account:read",
    "diazo auth login --2legged --scopes bucket:read,bucket:create,data:read",
    "diazo auth login --service-account SA_ID --key-file sa.pem",
  ]);
}
