/**
 * A process that takes a diazo lock file and keeps it until it is killed: the tests of issue 14
 * item 14 SIGKILL it to leave the lock behind as a refresh killed mid-way would.
 */
import { withFileLock } from "../../src/platform/lock.ts";

await withFileLock(Deno.args[0], async () => {
  await Deno.stdout.write(new TextEncoder().encode("held\n"));
  await new Promise(() => setInterval(() => {}, 60_000)); // held until killed (a timer keeps it running)
});
