/**
 * Helpers that change a sandbox's world through the platform's own API: a data management folder,
 * an issue and a webhook, each answering its id (for the snapshot and data-dir tests).
 */

import { dmWorld } from "../../src/sandbox/dm/world.ts";
import { api, type SandboxAt, token } from "./helpers.ts";
import { login } from "./oauth_helpers.ts";

/** The first seeded ACC project (its `b.` id) and its first top folder. */
export function seededProject(): { projectId: string; folderId: string } {
  const p = [...dmWorld().projects.values()].find((p) => p.id.startsWith("b."))!;
  return { projectId: p.id, folderId: p.topFolderIds[0] };
}

/** Creates folder `name` in the first seeded project's first top folder; answers its id. */
export async function makeFolder(sb: SandboxAt, name: string): Promise<string> {
  const { projectId, folderId } = seededProject();
  const t = await token(sb, "data:read data:write data:create");
  const res = await fetch(`${sb.url}/data/v1/projects/${projectId}/folders`, {
    method: "POST",
    headers: { authorization: `Bearer ${t}`, "content-type": "application/vnd.api+json" },
    body: JSON.stringify({
      jsonapi: { version: "1.0" },
      data: {
        type: "folders",
        attributes: { name, extension: { type: "folders:autodesk.core:Folder", version: "1.0" } },
        relationships: { parent: { data: { type: "folders", id: folderId } } },
      },
    }),
  });
  const body = await res.json();
  if (res.status !== 201) throw new Error(`folder create failed: ${res.status} ${JSON.stringify(body)}`);
  return body.data.id;
}

/** Creates an issue titled `title` in the first seeded project; answers its id. */
export async function makeIssue(sb: SandboxAt, title: string): Promise<string> {
  const { projectId } = seededProject();
  const bare = projectId.slice(2);
  const t = (await login(sb, "data:read data:write")).access_token;
  const base = `/construction/issues/v1/projects/${bare}/issues`;
  const listed = await api(sb, "GET", `${base}?limit=1`, t);
  const subtype = listed.json.results[0].issueSubtypeId;
  const a = await api(sb, "POST", base, t, { title, issueSubtypeId: subtype, status: "open" });
  if (a.status !== 200) throw new Error(`issue create failed: ${a.status} ${JSON.stringify(a.json)}`);
  return a.json.id;
}

/** Creates a webhook on folder additions calling back `callbackUrl`; answers its hook id. */
export async function makeHook(sb: SandboxAt, callbackUrl: string): Promise<string> {
  const { folderId } = seededProject();
  const t = await token(sb, "data:read data:write");
  const a = await api(sb, "POST", "/webhooks/v1/systems/data/events/dm.folder.added/hooks", t, {
    callbackUrl,
    scope: { folder: folderId },
  });
  if (a.status !== 201) throw new Error(`hook create failed: ${a.status} ${JSON.stringify(a.json)}`);
  return a.headers.get("location")!.split("/").at(-1)!;
}
