/** Contract of authentication.yaml: OAuth v2 (token, authorize, logout, keys, introspect, revoke) and OpenID. */

import { APP, basic } from "../sandbox/helpers.ts";
import { authorizationCode, CALLBACK } from "../sandbox/oauth_helpers.ts";
import { runPlan } from "./contract.ts";

const TOKEN = "POST /authentication/v2/token";
const appAuth = { authorization: basic(APP.id, APP.secret) };

Deno.test("contract: authentication.yaml", async () => {
  await runPlan({
    file: "authentication/authentication.yaml",
    setup: async (s) => ({ user: await s.userToken("data:read user-profile:read openid") }),
    ops: {
      "GET /authentication/v2/authorize": async (s) => {
        const q = new URLSearchParams({
          response_type: "code",
          client_id: APP.id,
          redirect_uri: CALLBACK,
          scope: "data:read",
          state: "st-1",
        });
        await s.call("GET /authentication/v2/authorize", `/authentication/v2/authorize?${q}`);
      },
      [TOKEN]: async (s) => {
        // client_credentials, authorization_code and refresh_token: the three grants of the file
        await s.call(TOKEN, "/authentication/v2/token", {
          form: { grant_type: "client_credentials", scope: "data:read bucket:read" },
          headers: appAuth,
        });
        const { code, verifier } = await authorizationCode(s.sb, "data:read");
        const login = await s.call(TOKEN, "/authentication/v2/token", {
          form: { grant_type: "authorization_code", code, redirect_uri: CALLBACK, code_verifier: verifier },
          headers: appAuth,
        });
        await s.call(TOKEN, "/authentication/v2/token", {
          form: { grant_type: "refresh_token", refresh_token: login.json.refresh_token },
          headers: appAuth,
        });
      },
      "GET /authentication/v2/keys": async (s) => {
        await s.call("GET /authentication/v2/keys", "/authentication/v2/keys");
      },
      "GET /.well-known/openid-configuration": async (s) => {
        await s.call("GET /.well-known/openid-configuration", "/.well-known/openid-configuration");
      },
      "POST /authentication/v2/introspect": async (s, w) => {
        await s.call("POST /authentication/v2/introspect", "/authentication/v2/introspect", {
          form: { token: w.user },
          headers: appAuth,
        });
      },
      "GET /userinfo": async (s, w) => {
        await s.call("GET /userinfo", "/userinfo", { token: w.user });
      },
      "POST /authentication/v2/revoke": async (s, w) => {
        await s.call("POST /authentication/v2/revoke", "/authentication/v2/revoke", {
          form: { token: w.user, token_type_hint: "access_token" },
          headers: appAuth,
        });
      },
      "GET /authentication/v2/logout": async (s) => {
        const q = new URLSearchParams({ post_logout_redirect_uri: "http://localhost:8080/signed-out" });
        await s.call("GET /authentication/v2/logout", `/authentication/v2/logout?${q}`);
      },
    },
  });
});
