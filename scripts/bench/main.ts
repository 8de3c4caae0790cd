/** `deno task bench`: every benchmark, printed (never asserted). */
import { benchStartup } from "./startup.ts";

await benchStartup();
