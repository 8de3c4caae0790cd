/** Test group 0-scripts-build (tests/suite/groups.ts). */
import { runGroup } from "./groups.ts";

await runGroup(import.meta.url);
