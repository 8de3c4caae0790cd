import { loginUser } from "/work/wt/issues/tests/e2e/user_login.ts";
const env: Record<string,string> = {};
for (const k of ["PATH","HOME","DIAZO_CONFIG_DIR","DIAZO_STATE_DIR","DIAZO_BASE_URL","SVC_CLIENT_ID","SVC_CLIENT_SECRET","DIAZO_TOKEN_STORE","NO_COLOR"]) { const v = Deno.env.get(k); if (v) env[k]=v; }
const r = await loginUser(env, Deno.args[0] ?? "data:read,data:write,data:create", Deno.args[1]);
console.log(r.code, r.stderr.slice(0,300));
