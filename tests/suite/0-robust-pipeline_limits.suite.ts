/** Test group 0-robust-pipeline_limits (tests/suite/groups.ts). */
import { runGroup } from "./groups.ts";

await runGroup(import.meta.url);
