/**
 * The codes the library gives its own warnings and errors, and the failure classes of a run: text tables the contract
 * (lib/kernel/contract.ts) writes into the schemas' descriptions and docs/events.md lists.
 */

/**
 * The codes of the warnings the library itself creates (every one has a code, so a consumer can
 * tell them from a harness's own). A harness's warnings carry the codes its page gives, if any.
 */
export const warningCodes = {
  not_json: "a line of the harness's output that is not JSON; the message is the line",
  line_too_long: 'a line longer than maxLineBytes; its content was skipped, the message gives its length',
  truncated:
    'a line longer than streamLinesAbove was read incrementally and kept within that budget; the message says what ' +
    'was cut',
  too_deep: 'a record nested more than 1,000 levels deep, which no consumer could serialize; dropped',
  encoding: 'the input is not UTF-8 text: UTF-16 (decoded) or gzip (skipped)',
  interleaved_fragment:
    'the head of a line another record was written into, which nothing completed; the message is its text',
  span_too_long: 'agent or reasoning text longer than maxSpanBytes, emitted in parts',
  invalid_event: 'an event that breaks its schema (a custom harness, or a bug); the event follows as unknown',
  stderr: 'a line the harness printed on standard error (spawnHarness, run)',
  incomplete: 'the harness ended without its terminal record (spawnHarness, run)',
  jetstream_message:
    'a message read back from JetStream that is not an event (fromJetStream, replay, view --from); the message ' +
    'names its stream, sequence and subject',
  session_truncated:
    'a session file being followed was truncated or replaced in place; it is read again from its start ' +
    '(followSession, follow)',
  session_deleted: 'a session file being followed was deleted; following it ends (followSession, follow)',
  permission_denied:
    "a tool call a permission setting refused, as the harness reported it (or an ACP agent's permission request the " +
    'library rejected); the message names the tool and the reason; the call keeps its own event (is_success false)',
  permission_answer:
    "a permissions 'ask' run's onPermission threw, rejected, or gave a malformed answer or one the agent cannot " +
    'express: the call was denied (spawnHarness, run)',
} as const;

/** The codes of the errors the library itself creates; a harness's errors carry the codes its page gives. */
export const errorCodes = {
  exit_code: 'the harness exited with a non-zero code (spawnHarness, run)',
  killed: 'the harness was killed by a signal it was not sent by an abort (spawnHarness, run)',
  spawn_failed: 'the harness could not be started (spawnHarness, run)',
  timeout: 'the run took longer than timeoutMs (--timeout) and was stopped (spawnHarness, run)',
  budget:
    'the run used more than its budget (budget.usd or budget.tokens, --max-cost, --max-tokens) and was stopped ' +
    '(spawnHarness, run)',
  stage_failed:
    'the normalizer failed (a strict schema violation, a throwing onLine): the events end here and the harness is ' +
    'stopped (spawnHarness, run)',
  max_buffer:
    'nothing read the events and they passed maxBufferBytes: the harness is stopped, later events are dropped ' +
    '(spawnHarness)',
  protocol_error:
    'an ACP agent answered session/new without a sessionId, so no prompt could be sent; the agent is stopped ' +
    '(spawnHarness, run)',
  unknown_harness:
    "with harness auto, the stream's first lines matched no harness; its records are kept as unknown events",
} as const;

/**
 * The normalized failure classes: why a run failed, in one vocabulary for every harness (`metrics.failure`). The
 * harness's own error code stays in each error event's `code`; each harness's table (its `failures`, on its page)
 * says which of its errors is which class.
 */
export const failureClasses = {
  auth: 'the model provider refused the credentials (HTTP 401 or 403, a missing or invalid API key, not logged in)',
  rate_limit: 'a rate limit, quota or usage limit was hit (HTTP 429)',
  context_overflow: "the conversation no longer fits the model's context window",
  api_error:
    'the model API failed otherwise (a server error or overload, an unreachable provider, a rejected request, an ' +
    'empty or invalid response)',
  limit: 'a limit set on the run was reached (turns, budget, output length)',
  permission_denied: 'the run ended because a permission setting refused a tool call',
  aborted: "the run was aborted (the caller's signal or stop(), or the harness reports an abort)",
  timeout: 'the run took longer than timeoutMs (--timeout) and was stopped',
  killed: 'the harness was killed by a signal the library did not send',
  spawn_failed: 'the harness could not be started',
  max_buffer: 'nothing read the events and they passed maxBufferBytes',
  stage_failed: 'the normalizer failed (a strict schema violation, a throwing onLine)',
  other: "the run failed for a reason no row of the harness's table classifies: its error events say why",
} as const;
