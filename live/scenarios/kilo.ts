/** Kilo 7.7.7 (kilo.md), an OpenCode fork: `run --format json --auto`, the same tools as OpenCode. */
import type { Scenario } from '../scenario.js';
import { apiErrorScenario, shellScenario, textScenario } from './common.js';
import { bash, fileToolTurns } from './opencode.js';

export const kilo: Scenario[] = [
  textScenario({ input: 2400, output: 12, cached: 1800, reasoning: 4 }, { args: ['--thinking'] }),
  { name: 'file tools', prompt: 'Read, search and write.', turns: fileToolTurns, exitCode: 0 },
  shellScenario(bash, 'false'),
  apiErrorScenario(401, 1),
];
