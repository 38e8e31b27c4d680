/** The events the `defaults` and `plan` rounds share (defaults.ts): the calls' own events and the refusals'. */
import type { EventBody } from '../../lib/kernel/events.js';
import type { Expected } from '../scenario.js';
import { defaultsDone } from './defaults.js';

export const denied = (tool: string, reason: string): EventBody => ({
  type: 'warning',
  code: 'permission_denied',
  message: `Permission denied: ${tool}: ${reason}`,
});
export const done: EventBody = { type: 'agent', message: defaultsDone };
export const readOk = (x: Expected): EventBody => ({ type: 'read', path: x.path('README.md'), is_success: true });
export const searchOk = (x: Expected): EventBody => ({
  type: 'search',
  query: 'hello',
  path: x.workspace,
  is_success: true,
});
export const listOk = (x: Expected): EventBody => ({ type: 'list', path: x.path('src'), is_success: true });
export const wrote = (x: Expected, path: string, is_success = false): EventBody => ({
  type: 'write',
  path: x.path(path),
  is_success,
});
export const rm = (x: Expected, cwd = true): EventBody => ({
  type: 'command',
  command: 'rm README.md',
  ...(cwd ? { working_directory: x.workspace } : {}),
  is_success: false,
});

export const notOffered = (tool: string, others: string) =>
  denied(
    tool,
    `Tool "${tool}" not found. Did you mean one of: ${others}? (the approval mode does not offer it headless)`,
  );
