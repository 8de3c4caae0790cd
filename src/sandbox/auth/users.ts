/**
 * The people tokens can act for: the well-known sandbox user, who approves (or, when told to,
 * denies) every authorization request, a visitor who is a member of nothing, and service
 * accounts; and their UserInfo profiles.
 */

import type { AuthStore, ServiceAccount } from "./store.ts";
import type { IdTokenSubject } from "./tokens.ts";

/** A user as the sandbox knows one. */
export interface SandboxUser extends IdTokenSubject {
  /** Milliseconds since the epoch. */
  createdAt: number;
}

/** The user behind every 3-legged login in the sandbox. */
export const SANDBOX_USER: Readonly<SandboxUser> = Object.freeze({
  userid: "DIAZOSANDBOXUSER",
  email: "sandbox.user@diazo.invalid",
  firstName: "Sandbox",
  lastName: "User",
  username: "sandbox.user",
  createdAt: Date.UTC(2024, 0, 1),
});

/**
 * A second person who can log in (`login_hint=visitor.user` on `/authorize`) but belongs to no
 * account and no project: the construction-cloud services refuse them (403).
 */
export const VISITOR_USER: Readonly<SandboxUser> = Object.freeze({
  userid: "DIAZOVISITORUSER",
  email: "visitor.user@diazo.invalid",
  firstName: "Visitor",
  lastName: "User",
  username: "visitor.user",
  createdAt: Date.UTC(2024, 0, 2),
});

/** Who signs in at `/authorize`: the visitor when the login hint names them, else the sandbox user. */
export function signingInUser(loginHint: string | null): Readonly<SandboxUser> {
  const hint = loginHint?.trim().toLowerCase();
  return hint === VISITOR_USER.username || hint === VISITOR_USER.email ? VISITOR_USER : SANDBOX_USER;
}

/** Domain of service-account e-mail addresses, after the client id. */
export const SERVICE_ACCOUNT_EMAIL_DOMAIN = "adskserviceaccount.autodesk.com";

/** The user a service account acts as. */
export function serviceAccountUser(sa: ServiceAccount): SandboxUser {
  return {
    userid: sa.serviceAccountId,
    email: sa.email,
    firstName: sa.name,
    lastName: "ServiceAccount",
    username: sa.name,
    createdAt: sa.createdAt,
  };
}

/** The user (sandbox user or service account) with this id, if there is one. */
export function findUser(auth: AuthStore, userid: string): SandboxUser | undefined {
  if (userid === SANDBOX_USER.userid) return SANDBOX_USER;
  if (userid === VISITOR_USER.userid) return VISITOR_USER;
  const sa = auth.serviceAccounts.get(userid);
  return sa ? serviceAccountUser(sa) : undefined;
}

const THUMBNAIL_SIZES = [20, 40, 50, 58, 80, 120, 160, 176, 240, 360];
const IMAGES = "https://images.profile.autodesk.com/default";

/** The UserInfo answer for `user`; `nowMs` is the sandbox clock (the last login is now). */
export function userInfo(user: SandboxUser, nowMs: number) {
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
  return {
    sub: user.userid,
    name: `${user.firstName} ${user.lastName}`,
    given_name: user.firstName,
    family_name: user.lastName,
    preferred_username: user.username,
    email: user.email,
    email_verified: true,
    profile: "https://profile.autodesk.com",
    picture: `${IMAGES}/user_X120.png`,
    locale: "en-US",
    updated_at: Math.floor(user.createdAt / 1000),
    is_2fa_enabled: false,
    country_code: "US",
    address: { street_address: "", locality: "", region: "", postal_code: "", country: "US" },
    phone_number: "",
    phone_number_verified: false,
    ldap_enabled: false,
    ldap_domain: null,
    job_title: "",
    industry: "",
    industry_code: "",
    about_me: "",
    language: "en",
    company: "diazo sandbox",
    created_date: iso(user.createdAt),
    last_login_date: iso(nowMs),
    eidm_guid: user.userid,
    opt_in: false,
    social_userinfo_list: [],
    thumbnails: Object.fromEntries(THUMBNAIL_SIZES.map((n) => [`sizeX${n}`, `${IMAGES}/user_X${n}.png`])),
  };
}
