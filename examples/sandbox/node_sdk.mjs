// The official Node SDK against the sandbox: a 2-legged token, a bucket, an upload, its details.
// Run: npm install @aps_sdk/autodesk-sdkmanager @aps_sdk/authentication @aps_sdk/oss
//      APS_BASE_URL=http://127.0.0.1:8787 node node_sdk.mjs
import { Buffer } from "node:buffer";
import { ApsConfiguration, SdkManagerBuilder } from "@aps_sdk/autodesk-sdkmanager";
import { AuthenticationClient, Scopes } from "@aps_sdk/authentication";
import { OssClient, Region } from "@aps_sdk/oss";

const config = new ApsConfiguration({});
config.BaseAddress = new URL(process.env.APS_BASE_URL ?? "http://127.0.0.1:8787");
const sdkManager = SdkManagerBuilder.create().addApsConfiguration(config).build();

const auth = new AuthenticationClient({ sdkManager });
const scopes = [Scopes.BucketCreate, Scopes.BucketRead, Scopes.DataRead, Scopes.DataWrite, Scopes.DataCreate];
const { access_token: accessToken } = await auth.getTwoLeggedToken(
  "diazo-sandbox",
  "diazo-sandbox-secret",
  scopes,
);

const oss = new OssClient({ sdkManager });
await oss.createBucket(Region.Us, { bucketKey: "my-app-tests", policyKey: "transient" }, { accessToken });
await oss.uploadObject("my-app-tests", "hello.txt", Buffer.from("hello from my app"), { accessToken });
const details = await oss.getObjectDetails("my-app-tests", "hello.txt", { accessToken });
console.log(`${details.objectKey} ${details.size} ${details.sha1}`);
