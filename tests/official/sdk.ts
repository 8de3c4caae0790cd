/**
 * The official Node SDK (`@aps_sdk/*` from the npm registry) pointed at a test sandbox: an
 * SdkManager whose base address is the sandbox's, so a client diazo did not write drives it.
 */
import { ApsConfiguration, type SdkManager, SdkManagerBuilder } from "@aps_sdk/autodesk-sdkmanager";
import type { Sandbox } from "../../src/sandbox/server.ts";

/** An SdkManager of the official SDK whose requests go to `sb`. */
export function sdkManagerFor(sb: Sandbox): SdkManager {
  const config = new ApsConfiguration({});
  config.BaseAddress = new URL(sb.url);
  return SdkManagerBuilder.create().addApsConfiguration(config).build();
}
