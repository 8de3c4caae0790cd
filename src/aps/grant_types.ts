/** OAuth grant type names beyond the plain ones, shared by the client and the sandbox. */

/** RFC 7523 JWT-bearer grant (service accounts). */
export const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** RFC 8628 device authorization grant. */
export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
