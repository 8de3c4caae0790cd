/**
 * The one place that says where the contract test knowingly departs from the official files.
 *
 * - SPEC_DEFECTS: the files' own defects (the live platform is more permissive than the file, or the
 *   file contradicts its own examples), each with the reason. A defect of a schema is corrected in
 *   memory by `patch` before any answer is checked, so everything else in that schema is still
 *   enforced; a defect of the declared statuses is skipped by `match`.
 * - SANDBOX_DEVIATIONS: answers of the sandbox that do not validate, to be fixed in src/sandbox. They
 *   keep the test passing but are printed on every run.
 *
 * An entry with `match` that no longer occurs fails the test, so both lists stay true.
 */

// deno-lint-ignore no-explicit-any
type Doc = any;

/** Problems the runner tolerates: answers of `op` (any when absent) with `status` whose detail contains `match`. */
export interface KnownProblem {
  /** Path below openapi/. */
  file: string;
  /** `METHOD /path/{template}` as in the file; every operation of the file when absent. */
  op?: string;
  /** Every status when absent. */
  status?: number;
  /** A substring of the problem's detail (e.g. `status 404 is not declared`) or a pattern it matches. */
  match: string | RegExp;
  /** What differs and why it is tolerated. */
  why: string;
}

/** A defect of an official file. */
export interface SpecDefect {
  file: string;
  /** What is wrong in the file and why the test departs from it. */
  why: string;
  /** Corrects the parsed file before it is used. */
  patch?: (doc: Doc) => void;
  /** Skips the problems this defect causes, when it cannot be corrected by a patch. */
  skip?: Omit<KnownProblem, "file" | "why">;
}

/** Defects of the official files. */
export const SPEC_DEFECTS: readonly SpecDefect[] = [
  {
    file: "authentication/authentication.yaml",
    why:
      "POST /authentication/v2/token models `scope` as one enum value; the service takes a space-separated " +
      "list of scopes, which the test sends (requests are not validated, so nothing is skipped)",
  },
  {
    file: "authentication/authentication.yaml",
    why:
      "UserInfo.ldap_domain is typed string, but its own description says it is null when ldap_enabled is false",
    patch: (doc) => {
      doc.components.schemas.UserInfo.properties.ldap_domain.nullable = true;
    },
  },
  {
    file: "construction/accountadmin/accountadmin.yaml",
    why: "Project types unset fields as non-nullable, but the service answers null for them: the ACC " +
      "reference of POST accounts/:accountId/projects types startDate, endDate, the address fields, " +
      "latitude, longitude and timezone as `null,string`, says imageUrl and thumbnailImageUrl can be " +
      "null, and its example answers `templateId: null`; the file's own Project.timezone description " +
      "says it can be NULL",
    patch: (doc) => {
      const props = doc.components.schemas.Project.properties;
      for (
        const f of [
          "startDate",
          "endDate",
          "addressLine1",
          "addressLine2",
          "city",
          "stateOrProvince",
          "postalCode",
          "country",
          "latitude",
          "longitude",
          "timezone",
          "imageUrl",
          "thumbnailImageUrl",
          "templateId",
        ]
      ) props[f].nullable = true;
    },
  },
  {
    file: "construction/accountadmin/accountadmin.yaml",
    why: "Pagination.nextUrl and previousUrl are typed string, but ACC lists answer null where there is " +
      'no such page (the ACC references: "Next page url is null on the last page")',
    patch: (doc) => {
      const props = doc.components.schemas.Pagination.properties;
      props.nextUrl.nullable = true;
      props.previousUrl.nullable = true;
    },
  },
  {
    file: "oss/oss.yaml",
    why:
      "GET /oss/v2/signedresources/{hash} declares only application/octet-stream, but the service answers " +
      "with the object's own content type (here the text/plain it was uploaded with)",
    skip: {
      op: "GET /oss/v2/signedresources/{hash}",
      status: 200,
      match: 'media type "text/plain" is not declared',
    },
  },
  {
    file: "oss/oss.yaml",
    why:
      'POST …/batchsigneds3download says results of failed objects "contain details of the failure", but ' +
      "its per-object schema (download_results, shared with signeds3download) has no failure shape: the " +
      "download_status enum lacks the `error` that the file's batch upload and completion results use, and " +
      "there is no `reason`. The batch answer may carry `{status: error, reason}` per object; the single " +
      "operation stays strict",
    patch: (doc) => {
      doc.components.schemas.batchsigneds3download_response.properties.results.additionalProperties = {
        anyOf: [
          { $ref: "#/components/schemas/download_results" },
          {
            type: "object",
            required: ["status", "reason"],
            properties: { status: { type: "string", enum: ["error"] }, reason: { type: "string" } },
          },
        ],
      };
    },
  },
  {
    file: "modelderivative/modelderivative.yaml",
    why: "GET …/manifest declares no error status; the service answers 404 for a design without a manifest",
    skip: {
      op: "GET /modelderivative/v2/designdata/{urn}/manifest",
      status: 404,
      match: "status 404 is not declared",
    },
  },
  {
    file: "modelderivative/modelderivative.yaml",
    why: "Properties types every value of an object's `properties` as an object, but values are strings or " +
      "categories (objects) — the file's own example has `Name: A5` beside `File Properties: {…}`",
    patch: (doc) => {
      const item = doc.components.schemas.Properties.properties.data.properties.collection.items;
      delete item.properties.properties.additionalProperties;
    },
  },
  {
    file: "modelderivative/modelderivative.yaml",
    why: "SpecificProperties.data refers to the whole Properties answer (which has its own `data`), so the " +
      "file requires `data.data`; its own example has `data.type` and `data.collection`",
    patch: (doc) => {
      doc.components.schemas.SpecificProperties.properties.data = {
        $ref: "#/components/schemas/Properties/properties/data",
      };
    },
  },
  {
    file: "datamanagement/datamanagement.yaml",
    why: "the `*extension*` schemas type every value of `extension.data` as an object, but the " +
      "values are strings, booleans and arrays (projectType, folderType, allowedTypes, processState…), as the " +
      "file's own examples show",
    patch: (doc) => {
      for (const [name, schema] of Object.entries<Doc>(doc.components.schemas)) {
        if (name.includes("extension")) delete schema.properties?.data?.additionalProperties;
      }
    },
  },
  {
    file: "construction/issues/Issues.yaml",
    why: "Issue, comment, attachment and issue_type type every optional field as a non-nullable string or " +
      "object, but the service answers null for unset ones (an unassigned issue's assignedTo, an open " +
      "issue's closedAt, a live record's deletedAt), as the ACC Issues reference's examples show",
    patch: (doc) => {
      const s = doc.components.schemas;
      const nullable = (props: Record<string, Doc>, names: string[]) => {
        for (const n of names) props[n].nullable = true;
      };
      nullable(s.Issue.properties, [
        "description",
        "snapshotUrn",
        "assignedTo",
        "assignedToType",
        "dueDate",
        "startDate",
        "locationId",
        "locationDetails",
        "rootCauseId",
        "officialResponse",
        "issueTemplateId",
        "openedBy",
        "openedAt",
        "closedBy",
        "closedAt",
        "deletedAt",
        "deletedBy",
        "gpsCoordinates",
      ]);
      nullable(s.comment.properties, ["deletedAt"]);
      nullable(s.attachment.properties, ["deletedBy", "deletedOn"]);
      nullable(s.issue_type.properties, ["deletedBy", "deletedAt"]);
      nullable(s.issue_type.properties.subtypes.items.properties, ["deletedBy", "deletedAt"]);
    },
  },
  {
    file: "construction/issues/Issues.yaml",
    why: "Issue.permittedActions is typed object, but its own description lists values (assign_all, " +
      "add_comment, ...) and the service answers a list of them",
    patch: (doc) => {
      doc.components.schemas.Issue.properties.permittedActions = { type: "array", items: { type: "string" } };
    },
  },
  {
    file: "construction/issues/Issues.yaml",
    why:
      "PATCH …/issues/{issueId} takes the same IssuePayload as POST, which requires title, issueSubtypeId and " +
      "status; a PATCH is a partial update: the ACC Issues reference of PATCH issues/:issueId " +
      "(https://aps.autodesk.com/en/docs/acc/v1/reference/http/issues-issues-issueId-PATCH/) marks no body " +
      "field required and says to send the attributes to change, and `issue update` sends only those. The " +
      "PATCH body is checked against IssuePayload without `required`; POST keeps it",
    patch: (doc) => {
      const op = doc.paths["/construction/issues/v1/projects/{projectId}/issues/{issueId}"].patch;
      const { required: _required, ...partial } = doc.components.schemas.IssuePayload;
      doc.components.schemas.IssuePatchPayload = partial;
      op.requestBody.content["application/json"].schema = { $ref: "#/components/schemas/IssuePatchPayload" };
    },
  },
  ...[
    "authentication/authentication.yaml",
    "datamanagement/datamanagement.yaml",
    "modelderivative/modelderivative.yaml",
    "construction/accountadmin/accountadmin.yaml",
    "construction/issues/Issues.yaml",
  ].map((file) => ({
    file,
    why:
      "many operations declare no 401, but every operation behind the gateway answers 401 without a valid " +
      "token (the runner calls each operation once more without one)",
    skip: { status: 401, match: "status 401 is not declared" },
  })),
  {
    file: "datamanagement/datamanagement.yaml",
    why: "ItemTip.links is a bare link `{href}`, but JSON:API answers (and the file's own example) have " +
      "`links: {self: {href}}`",
    patch: (doc) => {
      doc.components.schemas.ItemTip.properties.links = {
        type: "object",
        properties: { self: { $ref: "#/components/schemas/json_api_link" } },
      };
    },
  },
  {
    file: "datamanagement/datamanagement.yaml",
    why:
      "`GET /projects/{project_id}/versions/{version_id}/relationships/links` lacks the /data/v1 prefix of " +
      "every other data operation; it is listed as not served under the file's path",
  },
  {
    file: "datamanagement/datamanagement.yaml",
    why:
      "type_job (the type of a download job in CreatedDownload and Job) allows only `downloads`, but its " +
      "own description says `jobs`, as every example of CreatedDownload, Job and Download does; the sandbox " +
      "answers `jobs`",
    patch: (doc) => {
      doc.components.schemas.type_job.enum = ["jobs"];
    },
  },
];

/** Where the sandbox's answers do not validate; printed on every run until fixed in src/sandbox. */
export const SANDBOX_DEVIATIONS: readonly KnownProblem[] = [];
