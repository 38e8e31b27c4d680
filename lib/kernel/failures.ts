/**
 * The failure class of a run (`metrics.failure`, docs/contract.md "Run metrics"): each harness's errors keep their
 * own `code`, and its table of failures (data, one row per stable id) says which class each is, so a service can
 * branch on one vocabulary. The first error a row classifies names the run's class; a run that failed with none
 * classified is `other`; how the library itself ended a run (an abort, a timeout) wins over both.
 */
import type { failureClasses } from './codes.js';
import type { ErrorEvent, RunMetrics } from './events.js';

/** A failure class: one of `failureClasses` (lib/kernel/contract.ts). */
export type FailureClass = keyof typeof failureClasses;

/** One row of a harness's table of failures: which of its errors it matches, and their class. */
export interface FailureRow {
  /** The failure class a matching error gives the run (`metrics.failure`). */
  readonly class: FailureClass;
  /** The harness's error code (the error event's `code`) the row matches; any code when absent. */
  readonly code?: string;
  /** A pattern the error's message matches; any message when absent. */
  readonly message?: RegExp;
  /** What the row matches, as the harness page says it (the generated docs show it). */
  readonly description: string;
}

/** A table of failures: rows by stable id, tried in order, the first match wins. */
export type FailureRows = Readonly<Record<string, FailureRow>>;

/**
 * What most model APIs and agent CLIs say in an error's message, by HTTP status or wording, for the harnesses whose
 * errors have no code of their own (or a code too broad to tell): each harness's table spreads these rows where they
 * belong among its own.
 */
export const messageFailures = {
  'message:auth': {
    class: 'auth',
    message: new RegExp(
      [
        String.raw`\b40[13]\b`,
        'unauthori[sz]ed',
        'forbidden',
        '(invalid|incorrect|missing) api key',
        'api key (is )?(invalid|missing)',
        'authentication (failed|required)',
        '/login',
        'not logged in',
      ].join('|'),
      'i',
    ),
    description: 'a message saying 401 or 403, an invalid or missing API key, or a failed authentication',
  },
  'message:rate_limit': {
    class: 'rate_limit',
    message: /\b429\b|rate.?limit|too many requests|quota|usage limit|hit your .{0,20}limit/i,
    description: 'a message saying 429, a rate limit, too many requests, a quota or a usage limit',
  },
  'message:context_overflow': {
    class: 'context_overflow',
    message: /context.?(window|length)|prompt is too long|maximum context|too many tokens/i,
    description: 'a message saying the context window or length was exceeded, or the prompt is too long',
  },
  'message:api_error': {
    class: 'api_error',
    message: new RegExp(
      [
        String.raw`\b(5\d\d|400|404)\b`,
        'overloaded',
        'high demand',
        'api error',
        'server error',
        'stream disconnected',
        'could not connect',
        'network error',
        'empty response',
        'model not found',
      ].join('|'),
      'i',
    ),
    description:
      'a message saying 400, 404 or 5xx, an overload, an API or server error, a dropped stream, an unreachable ' +
      'provider, an empty response or an unknown model',
  },
} as const satisfies FailureRows;

/** The class of an error event under a table, and the id of the row that classified it; undefined when none does. */
export function classifyError(
  rows: FailureRows,
  error: Pick<ErrorEvent, 'message' | 'code'>,
): { id: string; class: FailureClass } | undefined {
  for (const [id, row] of Object.entries(rows)) {
    if (row.code !== undefined && row.code !== error.code) continue;
    if (row.message !== undefined && !row.message.test(error.message)) continue;
    return { id, class: row.class };
  }
  return undefined;
}

/** How the library ends a run, by the reason it gives (HarnessRunError's `reason`), when that is the run's class. */
const libraryEndings: Readonly<Record<string, FailureClass>> = {
  aborted: 'aborted',
  timeout: 'timeout',
  spawn_failed: 'spawn_failed',
  max_buffer: 'max_buffer',
  stage_failed: 'stage_failed',
  budget: 'limit',
};

/**
 * The class of a run that failed for `reason` (HarnessRunError's): the library's own ending wins; a kill or an exit
 * code keeps the class the run's errors gave, else `killed` or `other`.
 */
export function runFailure(reason: string, metrics: RunMetrics): FailureClass {
  return libraryEndings[reason] ?? metrics.failure ?? (reason === 'killed' ? 'killed' : 'other');
}
