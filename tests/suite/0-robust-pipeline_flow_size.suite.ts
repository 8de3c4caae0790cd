/** Test group 0-robust-pipeline_flow_size (tests/suite/groups.ts). */
import { runGroup } from "./groups.ts";

await runGroup(import.meta.url);
