/**
 * Model Derivative v2: translation jobs, manifests, derivative downloads (signed cookies and the
 * emulated CDN), thumbnails and metadata, under the current paths and the legacy EMEA prefix,
 * with the scopes of each operation's `security` in the OpenAPI.
 */

import { SCOPE_NAMES } from "../../aps/scopes.ts";
import {
  CDN_PREFIX,
  cdnDownload,
  deleteManifest,
  getDerivative,
  getManifest,
  getThumbnail,
  headDerivative,
} from "../derivative/handlers_manifest.ts";
import { listFormats, specifyReferences, startJob } from "../derivative/handlers_jobs.ts";
import {
  getObjectTree,
  getProperties,
  listModelViews,
  queryPropertiesRoute,
} from "../derivative/handlers_metadata.ts";
import { EMEA_PREFIX } from "../derivative/http.ts";
import type { Route } from "../router.ts";

const PREFIX = "/modelderivative/v2/designdata";
const READ = ["data:read"];
/** Operations needing data:read and data:write|data:create: the router checks the second, the handler data:read. */
const WRITE = ["data:write", "data:create"];

function designDataRoutes(prefix: string): Route[] {
  const urn = `${prefix}/:urn`;
  return [
    { method: "POST", pattern: `${prefix}/job`, scopes: WRITE, handler: startJob },
    { method: "POST", pattern: `${urn}/references`, scopes: WRITE, handler: specifyReferences },
    {
      method: "GET",
      pattern: `${urn}/manifest`,
      scopes: ["data:read", "viewables:read"],
      handler: getManifest,
    },
    { method: "DELETE", pattern: `${urn}/manifest`, scopes: ["data:write"], handler: deleteManifest },
    // The derivative URN holds ':' and '/': clients encode it, but a raw one is taken whole too.
    { method: "HEAD", pattern: `${urn}/manifest/*`, scopes: READ, handler: headDerivative },
    { method: "GET", pattern: `${urn}/manifest/*`, scopes: READ, handler: getDerivative },
    { method: "GET", pattern: `${urn}/thumbnail`, scopes: READ, handler: getThumbnail },
    { method: "GET", pattern: `${urn}/metadata`, scopes: READ, handler: listModelViews },
    { method: "GET", pattern: `${urn}/metadata/:guid`, scopes: READ, handler: getObjectTree },
    { method: "GET", pattern: `${urn}/metadata/:guid/properties`, scopes: READ, handler: getProperties },
    {
      method: "POST",
      pattern: `${urn}/metadata/:guid/properties:query`,
      scopes: READ,
      handler: queryPropertiesRoute,
    },
  ];
}

/** Routes of Model Derivative and of its download CDN. */
export const derivativeRoutes: readonly Route[] = [
  // Any valid token may list the formats (the operation names no scope).
  { method: "GET", pattern: `${PREFIX}/formats`, scopes: SCOPE_NAMES, handler: listFormats },
  ...designDataRoutes(PREFIX),
  ...designDataRoutes(EMEA_PREFIX),
  // Public: the signed cookies are the credential.
  { method: "GET", pattern: `${CDN_PREFIX}/:id`, scopes: [], handler: cdnDownload },
  { method: "HEAD", pattern: `${CDN_PREFIX}/:id`, scopes: [], handler: cdnDownload },
];
