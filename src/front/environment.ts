/**
 * The defaults that services and auth apply when an environment variable is not set, gathered for
 * `diazo help environment` (front/help_topics.ts), which may not import those rooms itself.
 */
import { DEFAULT_LOCK_WAIT_MS } from "../auth/token_lock.ts";
import { DEFAULT_STALL_AFTER_MS } from "../families/translate/api.ts";
import { DEFAULT_POLL_BASE_MS, DEFAULT_POLL_MAX_MS } from "../http/poll_options.ts";
import { DEFAULT_UPDATE_URL } from "./update_notice.ts";
import { CALLBACK_BUDGET_MS } from "../families/webhook/check.ts";

/** The defaults of DIAZO_LOCK_WAIT_MS, DIAZO_POLL_BASE_MS, DIAZO_STALL_MINUTES, DIAZO_UPDATE_URL and the webhook test budget. */
export const ENVIRONMENT_DEFAULTS = {
  lockWaitMs: DEFAULT_LOCK_WAIT_MS,
  pollBaseMs: DEFAULT_POLL_BASE_MS,
  pollMaxMs: DEFAULT_POLL_MAX_MS,
  stallAfterMs: DEFAULT_STALL_AFTER_MS,
  updateUrl: DEFAULT_UPDATE_URL,
  webhookTestBudgetMs: CALLBACK_BUDGET_MS,
} as const;
