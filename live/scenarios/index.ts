/** The scenarios of each row of live/harnesses.ts, by its id. */
import type { Scenario } from '../scenario.js';
import { claudeAcp, codexAcp, copilotAcp, opencodeAcp, qwenAcp } from './acp.js';
import { claudeCode } from './claude-code.js';
import { cline } from './cline.js';
import { codex } from './codex.js';
import { codexLosses } from './codex-losses.js';
import { copilot } from './copilot.js';
import { defaults } from './defaults-rows.js';
import { gemini } from './gemini.js';
import { kilo } from './kilo.js';
import { opencode } from './opencode.js';
import { pi } from './pi.js';
import { plans } from './plan-rows.js';
import { qwen } from './qwen.js';

const scenarioLists: Readonly<Record<string, readonly Scenario[]>> = {
  'claude-code': claudeCode,
  codex: [...codex, codexLosses],
  opencode,
  gemini,
  qwen,
  pi,
  copilot,
  kilo,
  'copilot-acp': copilotAcp,
  'qwen-acp': qwenAcp,
  'claude-acp': claudeAcp,
  'codex-acp': codexAcp,
  'opencode-acp': opencodeAcp,
  // The defaults round alone: the presets' permission settings measured.
  'gemini-acp': [],
  'kilo-acp': [],
  cline,
};

/** Each row's scenarios, its `defaults` round and its `plan` round last (pi has no default: its tools always run). */
export const scenarios: Readonly<Record<string, readonly Scenario[]>> = Object.fromEntries(
  Object.entries(scenarioLists).map(([id, list]) => [
    id,
    [...list, ...[defaults[id], plans[id]].filter((scenario) => scenario !== undefined)],
  ]),
);
