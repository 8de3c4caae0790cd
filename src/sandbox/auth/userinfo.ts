/**
 * UserInfo (`GET /userinfo`, on the profile host in the real platform, on the sandbox's own host
 * here): the profile of the user a 3-legged token acts for.
 */

import { insufficientScope, invalidToken } from "./bearer.ts";
import type { RequestContext } from "../context.ts";
import { json } from "../respond.ts";
import type { Route } from "../router.ts";
import { nowMs } from "../clock.ts";
import { findUser, userInfo } from "./users.ts";

/** Scopes that let a token read the user's profile (any one). */
export const USERINFO_SCOPES = ["user-profile:read", "user:read", "openid"] as const;

function getUserInfo(_req: Request, ctx: RequestContext): Response {
  const userid = ctx.token?.userid;
  // A 2-legged token acts for no user, so there is no profile it could read.
  if (userid === undefined) throw insufficientScope();
  const user = findUser(ctx.sandbox.auth, userid);
  if (!user) throw invalidToken();
  return json(200, userInfo(user, nowMs(ctx.sandbox.clock)));
}

/** Routes of the user-profile service. */
export const userInfoRoutes: readonly Route[] = [
  // The official SDK's getUserInfo and Autodesk's tutorials send the token without `Bearer`.
  { method: "GET", pattern: "/userinfo", scopes: USERINFO_SCOPES, bareToken: true, handler: getUserInfo },
];
