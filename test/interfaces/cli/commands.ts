/** What the tests of the normalize and run commands share: the children they start, the signals that stop them. */
import { join } from 'node:path';
import { jsonLines as lines } from '../../cli.js';

/** Events without their timestamps and session ids. */
export const untimed = (stdout: string) => lines(stdout).map(({ timestamp: _t, session_id: _s, ...rest }) => rest);

export const children = new URL('../../children/', import.meta.url).pathname;
// The CLI with a harness whose every record breaks its schema: with --strict, a stage that throws.
export const withBrokenHarness = join(children, 'cli-with-broken-harness.mjs');
export const violation = "harness-events: read event breaks its schema: read must have required property 'path'\n";

export const stopSignals = [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
  ['SIGQUIT', 131],
] as const;
