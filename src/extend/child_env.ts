/**
 * The environment a child process (hook, plugin, pipeline shell step) inherits: the run's, minus
 * every credential diazo reads. A child that needs the platform calls `$DIAZO_BIN`, which
 * finds the credentials of the profile itself; a secret given only in the environment stays with diazo.
 */

/** Credential variables of diazo and of the names it accepts (SVC_, APS_, FORGE_, DIAZO_). */
const CREDENTIAL = /^(SVC|APS|FORGE|DIAZO)_\w*(SECRET|TOKEN|PASSWORD|PRIVATE_KEY)\w*$/i;

/** Variables that match CREDENTIAL by name but hold no secret (which token store to use). */
const NOT_SECRET: ReadonlySet<string> = new Set(["DIAZO_TOKEN_STORE"]);

/** True when `name` is a credential variable that no child process may receive. */
export function isCredentialVariable(name: string): boolean {
  return CREDENTIAL.test(name) && !NOT_SECRET.has(name.toUpperCase());
}

/** The defined variables of `env` without the credential variables. */
export function childEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v !== undefined && !isCredentialVariable(k)) out[k] = v;
  }
  return out;
}
