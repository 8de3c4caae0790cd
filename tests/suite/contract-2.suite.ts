/** Test group contract-2 (tests/suite/groups.ts). */
import { runGroup } from "./groups.ts";

await runGroup(import.meta.url);
