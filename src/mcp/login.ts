/** Which login a tool call uses: the app's (2-legged) or the user's (3-legged, from `diazo auth login`). */
import { z } from "zod";
import { storedUserLogin } from "../session/user_login.ts";
import type { ServeDeps } from "./tool.ts";

/** How to log in as a user, for texts that tell a model (and its user) what to do. */
export const USER_LOGIN_HOW =
  "call auth_login and show the user the address and code it answers (a device login), or ask them to run " +
  "`diazo auth login --scopes data:read,data:write,data:create,account:read` in a terminal with the server's " +
  "profile; then call the tool again.";

/** What a description says of the user login; the server's instructions say how once (USER_LOGIN_HOW). */
export const USER_LOGIN_REF = "the instructions say how to log in";

/** The `auth` argument of tools that can act as the app or as the logged-in user. */
export const authInput = z.enum(["auto", "app", "user"]).default("auto").describe(
  "Whose login: app (the app's own), user (yours: also personal hubs), auto (user when logged in, else app).",
);

/** The profile's stored user login (valid or refreshable), if any. */
export function userLogin(deps: ServeDeps): ReturnType<typeof storedUserLogin> {
  return storedUserLogin(deps, true);
}
