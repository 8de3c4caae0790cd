/**
 * Guided flows of the tool server: prompts a user picks in the assistant, each a first message that
 * names the tools of the flow in order (upload → translate → inspect; triage a project's open issues).
 */
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  McpError,
  type Server,
} from "../../mcp/sdk.ts";

interface PromptDef {
  name: string;
  title: string;
  description: string;
  arguments: { name: string; description: string; required: boolean }[];
  text(args: Record<string, string>): string;
}

/** The prompts. */
export const PROMPTS: readonly PromptDef[] = [
  {
    name: "upload_translate_inspect",
    title: "Upload, translate and inspect a model",
    description: "Uploads a local design file, translates it, and summarises its objects and properties.",
    arguments: [
      {
        name: "file",
        description: "The design file, inside the directories the server allows.",
        required: true,
      },
      {
        name: "bucket_key",
        description: "The bucket to upload into (created when missing).",
        required: true,
      },
    ],
    text: (a) =>
      `Upload ${a.file} into the bucket ${a.bucket_key} and tell me what the model holds. Steps: ` +
      "1. If object_upload is not offered, call toolset_enable with toolset storage. " +
      `2. bucket_get ${a.bucket_key}; if it does not exist, bucket_create it. ` +
      `3. object_upload the file into ${a.bucket_key}; keep the urn it answers. ` +
      "4. translate_start with that urn (formats svf2), then translate_status with wait_seconds 300 until done. " +
      "5. translate_tree: the object hierarchy of the master view. " +
      "6. translate_properties: page through the properties (a larger limit, then cursor). " +
      "Finish with a short summary: the main categories and how many objects each, and notable properties. " +
      "If a step fails, say which and follow its hint.",
  },
  {
    name: "triage_issues",
    title: "Triage a project's open issues",
    description: "Lists the open issues of a construction-cloud project and groups them for a decision.",
    arguments: [
      { name: "project_id", description: "The project's id (GUID, or b.<guid>).", required: true },
    ],
    text: (a) =>
      `Triage the open issues of the project ${a.project_id}. Steps: ` +
      `1. issue_list with project_id ${a.project_id} and status ["open"], following next_cursor to the end. ` +
      "2. issue_types, to name each issue's type. " +
      "3. Group the issues by type and by assignee; flag those past their due date or without an assignee. " +
      "4. For each group, propose the next action (assign, answer, close, escalate). " +
      "Change nothing yourself: list the changes you propose (issue_update, issue_comment_add) and ask me first.",
  },
];

/** Offers the prompts on `server` (declared in its capabilities). */
export function registerPrompts(server: Server): void {
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: PROMPTS.map(({ name, title, description, arguments: args }) => ({
      name,
      title,
      description,
      arguments: args,
    })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const prompt = PROMPTS.find((p) => p.name === request.params.name);
    if (!prompt) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown prompt '${request.params.name}': prompts/list names them (${
          PROMPTS.map((p) => p.name).join(", ")
        })`,
      );
    }
    const args = request.params.arguments ?? {};
    const missing = prompt.arguments.filter((a) => a.required && !args[a.name]).map((a) => a.name);
    if (missing.length) {
      throw new McpError(ErrorCode.InvalidParams, `Prompt ${prompt.name} needs ${missing.join(", ")}`);
    }
    return {
      description: prompt.description,
      messages: [{ role: "user", content: { type: "text", text: prompt.text(args) } }],
    };
  });
}
