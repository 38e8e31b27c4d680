/**
 * docs/harnesses/qwen.md difference 9: the fatal stops that end a Qwen Code run without a `result` record, by
 * exit code (Qwen Code's FatalError classes), each with what it
 * means. Such a run ended as Qwen meant it to (its stderr line says why), so spawnHarness names
 * the reason in the `exit_code` error and does not call the run incomplete. Exit 1 after an
 * error `result` is not one of them; any other exit without a `result` is an incomplete run.
 */
export const exitCodes: ReadonlyMap<number, string> = new Map([
  [42, 'input error'],
  [44, 'sandbox error'],
  [52, 'configuration error'],
  [53, 'session turn limit reached'],
  [55, 'budget reached (wall time or tool calls)'],
  [130, 'cancelled'],
]);
