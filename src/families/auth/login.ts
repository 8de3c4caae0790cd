/**
 * `auth login`: chooses the flow (2-legged, service account, 3-legged with PKCE, device) and runs
 * the app's own ones here; the user's flows are in auth_login_user.ts. Results are returned, never
 * printed: what the user must do to sign in goes through the deps' `tell`/`readLine`.
 */
import path from "node:path";
import { DiazoError, usageError } from "../../core/errors.ts";
import { readInputText } from "../../core/input_file.ts";
import { storedFromResponse } from "../../auth/three_legged.ts";
import { threeLeggedKey } from "../../auth/user_token.ts";
import { signAssertion } from "../../auth/service_account.ts";
import { jwtBearerToken } from "../../auth/authentication.ts";
import { appToken, type ProfileDeps } from "./verbs.ts";
import { checkedScopes, saveProfileScopes } from "./scopes.ts";
import {
  type LoginDeps,
  type LoginOptions,
  type LoginResult,
  loginResult,
  userScopes,
} from "./login_shared.ts";
import { loginDevice, loginThreeLegged } from "./login_user.ts";

async function loginTwoLegged(deps: ProfileDeps, opts: LoginOptions): Promise<LoginResult> {
  if (opts.scopes) await saveProfileScopes(deps, checkedScopes(opts.scopes, "2-legged", (m) => deps.warn(m)));
  const fresh = await deps.settings();
  const token = await appToken(deps, { force: true });
  return loginResult(
    token,
    fresh.profileName,
    { client_id: token.client_id },
    `Logged in (2-legged) as app ${token.client_id} with ${token.scopes.join(" ")}`,
  );
}

/** The key file's PEM text (a regular file within its cap); a relative path is found from the run's cwd. */
async function readKeyFile(cwd: string, file: string): Promise<string> {
  try {
    return (await readInputText(path.resolve(cwd, file), "key", { shown: file }))!;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new DiazoError("file_not_found", { params: { file } });
    throw e;
  }
}

async function loginServiceAccount(deps: ProfileDeps, opts: LoginOptions): Promise<LoginResult> {
  const resolved = await deps.settings();
  const clientId = resolved.clientId.value;
  if (!clientId || !resolved.clientSecret.value) throw new DiazoError("missing_credentials");
  if (!opts.keyFile) {
    throw usageError(
      "--service-account needs --key-file <pem>",
      "Pass the private key file of the service account's key.",
    );
  }
  const pem = await readKeyFile(deps.cwd, opts.keyFile);
  const scopes = userScopes(opts);
  const assertion = await signAssertion({
    clientId,
    serviceAccountId: opts.serviceAccount!,
    keyId: opts.keyId,
    pem,
    scopes,
  });
  const res = await jwtBearerToken(await deps.http({ auth: "none" }), {
    clientId,
    clientSecret: resolved.clientSecret.value,
    assertion,
    scopes,
  });
  const id = { profile: resolved.profileName, clientId, baseUrl: resolved.baseUrl.value, scopes };
  const token = storedFromResponse(res, id, Date.now());
  await (await deps.tokenStore()).put(
    threeLeggedKey(resolved.profileName, clientId, resolved.baseUrl.value),
    token,
  );
  return loginResult(
    token,
    resolved.profileName,
    { service_account: opts.serviceAccount },
    `Logged in as service account ${opts.serviceAccount}`,
  );
}

/** `auth login`: runs the one flow the options choose (3-legged with PKCE by default). */
export async function runLogin(opts: LoginOptions, deps: LoginDeps): Promise<LoginResult> {
  const modes =
    [opts.twoLegged, opts.threeLegged, opts.serviceAccount !== undefined, opts.device].filter(Boolean).length;
  if (modes > 1) {
    throw usageError(
      "choose one of --2legged, --3legged, --service-account, --device",
      "Example: diazo auth login --3legged --scopes data:read",
    );
  }
  if (opts.device) return await loginDevice(deps, opts);
  if (opts.twoLegged) return await loginTwoLegged(deps, opts);
  if (opts.serviceAccount !== undefined) return await loginServiceAccount(deps, opts);
  return await loginThreeLegged(deps, opts);
}
