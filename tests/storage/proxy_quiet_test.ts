/**
 * The fault proxy's lost answer is lost to the client yet prints nothing: an errored response
 * stream would make Deno.serve print a stack trace into the suite's output, which a newcomer
 * reads as a failure. Run in a child process, whose stderr is the runtime's own.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

Deno.test("a lost answer from the fault proxy fails the client's read and prints no stack trace", async () => {
  const proxy = fileURLToPath(new URL("./_proxy.ts", import.meta.url));
  const script = `
    import { lostAnswer, startFaultProxy } from ${JSON.stringify(proxy)};
    const p = startFaultProxy("http://127.0.0.1:9", () => lostAnswer());
    try {
      await (await fetch(p.url + "/x")).text();
      console.log("read whole");
    } catch {
      console.log("read failed");
    }
    await p.close();
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(new TextDecoder().decode(out.stdout).trim(), "read failed");
  assert.equal(stderr, "", "nothing on stderr");
});
