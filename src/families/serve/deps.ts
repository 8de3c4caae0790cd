/** What `diazo serve`'s tool server is given (families/serve/commands.ts): the run's context as ops deps. */
import path from "node:path";
import type { ToolServerDeps } from "../../session/deps.ts";
import type { Ctx } from "../../command/context.ts";

/** What the tool server of this run is given: the context as ops deps, its log lines and file roots. */
export function serveDeps(ctx: Ctx, allowDir: readonly string[] = []): ToolServerDeps {
  return {
    fileRoots: {
      allowed: allowDir.length ? allowDir.map((d) => path.resolve(ctx.cwd, d)) : [ctx.cwd],
      denied: [ctx.configDir, ctx.stateDir],
      seen: new Set(),
    },
    http: (o) => ctx.http(o),
    settings: () => ctx.settings(),
    tokenStore: () => ctx.tokenStore(),
    tokenStoreStatus: () => ctx.tokenStoreStatus(),
    cwd: ctx.cwd,
    stateDir: ctx.stateDir,
    poll: ctx.poll,
    info: (line) => ctx.info(line),
    warn: (line) => ctx.warn(line),
    log: (line) => ctx.io.stderr.write(line + "\n"),
    debug: (line) => ctx.debug(line),
    debugEnabled: ctx.flags.debug,
  };
}
