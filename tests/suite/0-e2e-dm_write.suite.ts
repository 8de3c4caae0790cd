/** Test group 0-e2e-dm_write (tests/suite/groups.ts). */
import { runGroup } from "./groups.ts";

await runGroup(import.meta.url);
