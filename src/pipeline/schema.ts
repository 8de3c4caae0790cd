/** The pipeline file format: its keys, name rules and the published JSON Schema (`diazo pipeline schema`). */

/** Keys allowed at the top level of a pipeline file. */
export const TOP_LEVEL_KEYS = ["$schema", "version", "name", "variables", "steps"] as const;

/** Keys allowed in one step. */
export const STEP_KEYS = ["name", "id", "command", "shell", "continue_on_error"] as const;

/** What a variable name or a step id must look like (usable in `${{ vars.x }}` and `${{ steps.x }}`). */
export const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Fields of a step that `${{ steps.<id>.<field> }}` can read. */
export const STEP_FIELDS = ["result", "exit_code", "status"] as const;

/** Where the schema is published in the repository. */
export const SCHEMA_PATH = "schemas/pipeline.schema.json";

const NAME_REGEX = NAME_PATTERN.source;

/** JSON Schema (draft 2020-12) of a pipeline file, for editors' completion and checks. */
export const PIPELINE_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "diazo pipeline",
  description: "Ordered steps of diazo commands, run with `diazo pipeline run <file>`. " +
    "Values can be interpolated with ${{ vars.<name> }} and ${{ steps.<id>.result.<path> }}; " +
    "$${{ writes a literal ${{.",
  type: "object",
  additionalProperties: false,
  required: ["name", "steps"],
  properties: {
    $schema: { type: "string", description: "the schema this file follows (for editors)" },
    version: { const: 1, description: "the file format version (1)" },
    name: { type: "string", minLength: 1, description: "the pipeline's name, shown in the summary" },
    variables: {
      type: "object",
      description: "default values of ${{ vars.<name> }}; `--var name=value` overrides them",
      propertyNames: { pattern: NAME_REGEX },
      additionalProperties: { type: ["string", "number", "boolean"] },
    },
    steps: {
      type: "array",
      minItems: 1,
      description: "the steps, run in order; a failing step stops the pipeline unless continue_on_error",
      items: { $ref: "#/$defs/step" },
    },
  },
  $defs: {
    step: {
      type: "object",
      additionalProperties: false,
      required: ["name"],
      oneOf: [{ required: ["command"] }, { required: ["shell"] }],
      properties: {
        name: { type: "string", minLength: 1, description: "what the step does, shown in the summary" },
        id: {
          type: "string",
          pattern: NAME_REGEX,
          description: "lets later steps read this step's result: ${{ steps.<id>.result.<path> }}",
        },
        command: {
          type: "string",
          minLength: 1,
          description:
            "a diazo command line without the leading `diazo`, e.g. `object upload my-bucket a.obj`",
        },
        shell: {
          type: "string",
          minLength: 1,
          description:
            "a command for the OS shell (sh -c, cmd /C); runs only with `pipeline run --allow-shell`. " +
            "No ${{ }}: values are in its environment as DIAZO_VAR_<name>, DIAZO_STEP_<id>_RESULT (JSON), " +
            "DIAZO_STEP_<id>_EXIT_CODE and DIAZO_STEP_<id>_STATUS",
        },
        continue_on_error: {
          type: "boolean",
          default: false,
          description: "when true, a failure of this step does not stop the pipeline",
        },
      },
    },
  },
} as const;

/** The schema as the text `pipeline schema` prints and the repository publishes. */
export function schemaText(): string {
  return JSON.stringify(PIPELINE_SCHEMA, null, 2) + "\n";
}
