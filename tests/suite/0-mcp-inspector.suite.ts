/** Test group 0-mcp-inspector (tests/suite/groups.ts). */
import { runGroup } from "./groups.ts";

await runGroup(import.meta.url);
