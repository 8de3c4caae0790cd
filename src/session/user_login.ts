/** The profile's stored user login (3-legged), read by the verbs that choose a login and by the tool server. */
import { threeLeggedKey } from "../auth/user_token.ts";
import type { StoredToken } from "../auth/token_store.ts";
import type { OpsDeps } from "./deps.ts";

/** The profile's stored user login, if any; with `usable`, only one still valid or refreshable. */
export async function storedUserLogin(deps: OpsDeps, usable = false): Promise<StoredToken | undefined> {
  const resolved = await deps.settings();
  const clientId = resolved.clientId.value;
  if (!clientId) return undefined;
  const store = await deps.tokenStore();
  const token = await store.get(threeLeggedKey(resolved.profileName, clientId, resolved.baseUrl.value));
  if (!token || !usable) return token ?? undefined;
  return token.expires_at > Date.now() || token.refresh_token ? token : undefined;
}
