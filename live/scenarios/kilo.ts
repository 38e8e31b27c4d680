/**
 * Kilo 7.7.7 (kilo.md), an OpenCode fork: `run --format json --auto`. Its stream is OpenCode's and
 * so are the tools these scenarios use, the token accounting and the error record: OpenCode's
 * scenarios, run through Kilo, give the same events.
 */
import type { Scenario } from '../scenario.js';
import { opencode } from './opencode.js';

export const kilo: readonly Scenario[] = opencode;
