/** `diazo api <path>`: raw authenticated access to any platform path, declared as data (command/decl.ts) over ./verbs.ts. */
import { isDiazoError, usageError } from "../../core/errors.ts";
import { type ApiResult, runApi } from "./verbs.ts";
import type { BodyReader } from "../../http/stream_body.ts";
import { headText } from "./answer.ts";
import { collect } from "../../command/command.ts";
import type { CommandDecl } from "../../command/decl.ts";
import type { Ctx } from "../../command/context.ts";

/** A binary answer: its bytes on stdout as they came; on a terminal, a note where to send them instead. */
function writeBytes(ctx: Ctx, bytes: Uint8Array, contentType = "no content type"): void {
  if (!ctx.io.stdout.isTerminal) return ctx.io.stdout.write(bytes);
  ctx.info(
    `HTTP answer of ${bytes.length} bytes (${contentType}) not shown on a terminal; redirect stdout to a file: diazo api ... > out.bin`,
  );
}

/** A large answer: its bytes to stdout as they come (never held whole); on a terminal, a note instead. */
async function writeStream(ctx: Ctx, body: BodyReader, contentType = "no content type") {
  if (ctx.io.stdout.isTerminal) {
    await body.cancel();
    return ctx.info(
      `HTTP answer larger than 1 MiB (${contentType}) not shown on a terminal; redirect stdout to a file: diazo api ... > out.bin`,
    );
  }
  for (let chunk = await body.read(); chunk; chunk = await body.read()) ctx.io.stdout.write(chunk);
}

/** `-i` of a refusal: its status line, headers and body as they came. */
function writeRefusal(ctx: Ctx, answer: Pick<ApiResult, "status" | "headers" | "data">): void {
  ctx.io.stdout.write(headText(answer.status, answer.headers));
  const { data } = answer;
  if (data === undefined || data === null) return;
  if (data instanceof Uint8Array) return writeBytes(ctx, data);
  const text = typeof data === "string" ? data : JSON.stringify(data, null, 2);
  ctx.io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

/** A successful answer on stdout: -i's head, then the body as JSON, text or bytes (none with --silent). */
async function writeResult(
  ctx: Ctx,
  result: ApiResult,
  opts: { include?: boolean; silent?: boolean },
): Promise<void> {
  if (result.pages !== undefined) ctx.debug(`api: ${result.pages} page(s)`);
  if (opts.include) ctx.io.stdout.write(headText(result.status, result.headers));
  if (result.stream && opts.silent) return await result.stream.cancel();
  if (opts.silent) return;
  if (result.stream) return await writeStream(ctx, result.stream, result.contentType);
  if (result.data === undefined) return ctx.info(`HTTP ${result.status} (no body)`);
  if (result.data instanceof Uint8Array) return writeBytes(ctx, result.data, result.contentType);
  if (typeof result.data === "string") {
    // Text that is not JSON goes out as it came; -o and --query shape JSON answers only.
    return ctx.io.stdout.write(result.data.endsWith("\n") ? result.data : `${result.data}\n`);
  }
  if (ctx.run.outputSource !== "terminal") return await ctx.emit(result.data);
  // Like `gh api`: JSON on a terminal too, unless a format was asked for.
  const shown = ctx.flags.query
    ? await (await import("../../core/output_query.ts")).applyQuery(result.data, ctx.flags.query)
    : result.data;
  ctx.io.stdout.write(typeof shown === "string" ? `${shown}\n` : `${JSON.stringify(shown, null, 2)}\n`);
}

/** gh's `--jq` is JMESPath's `--query` here: say so rather than "unknown option". */
function refuseJq(expression: string): never {
  throw usageError(
    "diazo api has no --jq",
    `Filter with JMESPath instead: --query '${expression}' (or pipe -o json into jq).`,
  );
}

/** The options `api` is given. */
interface ApiOpts {
  method?: string;
  field?: string[];
  typedField?: string[];
  input?: string;
  header?: string[];
  param?: string[];
  paginate?: true;
  scopes?: string;
  as: "app" | "user";
  allowHost?: string[];
  include?: true;
  silent?: true;
  jq?: string;
}

/** The `api` command. */
export const API: CommandDecl = {
  name: "api",
  description:
    "send an authenticated request to any platform path and print the answer: JSON pretty-printed, text and bytes as they come (like `gh api`)",
  args: [{
    spec: "<path>",
    description: "a platform path such as /oss/v2/buckets (or a full URL on the platform's host)",
  }],
  options: [
    {
      flags: "-X, --method <method>",
      description: "HTTP method (default GET; POST when -f, -F or --input is given, as in gh)",
    },
    {
      flags: "-f, --field <key=value>",
      description:
        "a string field of the JSON body; makes the default method POST (with -X GET: a query parameter)",
      parse: collect(),
    },
    {
      flags: "-F, --typed-field <key=value>",
      description:
        "a field typed as JSON (true, false, null, numbers), key=@file a file's text, @- stdin; as -f otherwise",
      parse: collect(),
    },
    { flags: "--input <file>", description: "the request body as it is, from a file or - for stdin" },
    { flags: "-H, --header <'Name: value'>", description: "a request header", parse: collect() },
    {
      flags: "--param <key=value>",
      description: "a query parameter (the global --query filters the output)",
      parse: collect(),
    },
    {
      flags: "--paginate",
      description:
        "follow every page (OSS next, JSON:API links.next, ACC and HQ offsets, DA paginationToken)",
    },
    {
      flags: "--scopes <list>",
      description:
        "the scope(s) the operation needs, named in errors (default: the scopes diazo knows for that path)",
    },
    {
      flags: "--as <who>",
      description: "act as the app (2-legged) or the logged-in user",
      choices: ["app", "user"],
      default: "app",
    },
    {
      flags: "--allow-host <host>",
      description: "also allow absolute URLs on this host (no platform token is sent there)",
      parse: collect(),
    },
    { flags: "-i, --include", description: "print the answer's status line and headers before its body" },
    { flags: "--silent", description: "do not print the answer's body" },
    { flags: "--jq <expression>", description: "", hidden: true },
  ],
  examples: [
    "diazo api /oss/v2/buckets --paginate",
    "diazo api /oss/v2/buckets/my-bucket/objects --param limit=10 --paginate -o json --query '[].objectKey'",
    "diazo api /oss/v2/buckets -f bucketKey=my-bucket -f policyKey=transient -H 'x-ads-region: US'",
    "diazo api /oss/v2/buckets/my-bucket/objects -X GET -f limit=10 -i",
    "diazo api /modelderivative/v2/designdata/job --input job.json",
    "diazo api /project/v1/hubs --as user",
  ],
  run: async (ctx, [target]: string[], opts: ApiOpts) => {
    if (opts.jq !== undefined) refuseJq(opts.jq);
    const result = await runApi({
      path: target,
      method: opts.method,
      fields: opts.field,
      typedFields: opts.typedField,
      input: opts.input,
      headers: opts.header,
      params: opts.param,
      paginate: opts.paginate,
      scopes: opts.scopes,
      as: opts.as,
      allowHosts: opts.allowHost,
      readStdin: () => ctx.io.stdin.readText(),
      whole: Boolean(ctx.flags.query) || ctx.run.outputSource === "flag" || ctx.run.outputSource === "env",
    }, ctx).catch((e) => {
      // -i shows a refusal whole on stdout, as gh does; the error line follows on stderr.
      if (opts.include && isDiazoError(e) && e.status !== undefined) {
        writeRefusal(ctx, { status: e.status, headers: e.headers, data: e.body });
      }
      throw e;
    });
    await writeResult(ctx, result, opts);
  },
};
