/**
 * Data management commands (`POST /data/v1/projects/{project_id}/commands`, datamanagement.yaml
 * `CommandPayload` and `Command`): CheckPermission answers, for each resource named, whether the
 * caller may take each required action (the sandbox's callers may take every action on what their
 * project holds; a resource the project lacks permits nothing). The other commands (publishing,
 * ListRefs, ListItems) answer a JSON:API 400 naming the command as not emulated.
 */

import type { RequestContext } from "../context.ts";
import type { Route } from "../router.ts";
import { dmBadInput, jsonApi } from "./jsonapi.ts";
import { isRecord, objectAt, payload } from "./payload.ts";
import { visibleProject } from "./routes.ts";
import type { DmProject, DmWorld } from "./world.ts";

const CHECK_PERMISSION = "commands:autodesk.core:CheckPermission";

/** Whether `project` holds the resource of `type` and `id`. */
function holds(world: DmWorld, project: DmProject, type: string, id: string): boolean {
  const found = type === "folders"
    ? world.folders.get(id)
    : type === "items"
    ? world.items.get(id)
    : type === "versions"
    ? world.versions.get(id)
    : undefined;
  return found?.projectId === project.id;
}

async function runCommand(req: Request, ctx: RequestContext): Promise<Response> {
  const { data } = await payload(req, "commands");
  const extension = objectAt(
    objectAt(data.attributes, "data.attributes").extension,
    "data.attributes.extension",
  );
  if (extension.type !== CHECK_PERMISSION) {
    throw dmBadInput(
      `The command ${String(extension.type)} is not emulated by the sandbox (only CheckPermission)`,
    );
  }
  const input = isRecord(extension.data) ? extension.data : {};
  const actions = Array.isArray(input.requiredActions) ? input.requiredActions.map(String) : [];
  if (actions.length === 0) {
    throw dmBadInput("data.attributes.extension.data.requiredActions must name actions");
  }
  const rels = objectAt(data.relationships, "data.relationships");
  const listed = objectAt(rels.resources, "data.relationships.resources").data;
  if (!Array.isArray(listed) || listed.length === 0) {
    throw dmBadInput("data.relationships.resources.data must name the resources to check");
  }
  const world = ctx.sandbox.dm.writable();
  const project = visibleProject(ctx, world);
  const resources = listed.map((r) => ({ type: String(r?.type), id: String(r?.id) }));
  const permissions = resources.map((r) => {
    const allowed = holds(world, project, r.type, r.id);
    return {
      ...r,
      details: Object.fromEntries(actions.map((a) => [a, allowed])),
      permission: allowed,
    };
  });
  return jsonApi(200, {
    jsonapi: { version: "1.0" },
    data: {
      type: "commands",
      id: crypto.randomUUID(),
      attributes: {
        extension: {
          type: CHECK_PERMISSION,
          version: "1.0.0",
          schema: { href: `${ctx.baseUrl}/schema/v1/versions/${CHECK_PERMISSION}-1.0.0` },
          data: { permissions, requiredActions: actions },
        },
      },
      relationships: { resources: { data: resources } },
    },
  });
}

/** The commands route of data management. */
export const commandRoutes: readonly Route[] = [
  {
    method: "POST",
    pattern: "/data/v1/projects/:projectId/commands",
    scopes: ["data:read", "data:create", "data:write"],
    handler: runCommand,
  },
];
