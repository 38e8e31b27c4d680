/**
 * docs/harnesses/codex.md "Calls no item reports": a rollout's raw call and its output become the call's events
 * when no item reports it, exactly once either way. The surfaces captures (test/fixtures/codex/surfaces/,
 * SURFACES.md there; the exec default run is test/fixtures/codex/transcripts/workdir/).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { readSession } from '../../../lib/runtime/sessions/sessions.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { bodies, fixturePath } from '../../helpers.js';
import { escalated, patched, project, sandboxFailed } from './main-turns.js';

const execDefault = fixturePath(
  'codex/transcripts/workdir/home/.codex/sessions/2026/12/05/' +
    'rollout-2026-12-05T05-48-37-01a244bf-4d50-7770-8b13-7232e24d1315.jsonl',
);
const surface = (name: string) => fixturePath(`codex/surfaces/${name}/rollout-1.jsonl`);

const patchRefused = 'patch rejected: writing is blocked by read-only sandbox; rejected by user approval settings';
const escalationRefused =
  'approval policy is Never; reject command — you cannot ask for escalated permissions if the approval policy is Never';

async function read(path: string) {
  const session = readSession({ harness: 'codex', path, strict: true });
  const events: HarnessEvent[] = [];
  for await (const event of session) events.push(event);
  return { events: bodies(events), metrics: session.metrics };
}

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The exec default rollout's lines, changed by `edit`, in a file of their own. */
function edited(edit: (lines: string[]) => string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'codex-raw-'));
  dirs.push(dir);
  const path = join(dir, 'rollout-edited.jsonl');
  writeFileSync(path, edit(readFileSync(execDefault, 'utf8').trimEnd().split('\n')).join('\n') + '\n');
  return path;
}

describe('raw calls with no item (exec --json --sandbox read-only, MAIN_TURNS)', () => {
  test('every call the model made, once: refused patches and escalations, the sandbox-failed command', async () => {
    const { events, metrics } = await read(execDefault);
    expect(events).toEqual([
      { type: 'agent', message: 'Working from inside docs.' },
      // call_0002 has its CommandExecution item: that item's event alone.
      {
        type: 'command',
        command: 'pwd && cat guide.md',
        working_directory: `${project}/docs`,
        exit_code: 0,
        is_success: true,
      },
      // call_0004, call_0006: refused patches, one write per file, then the refusal.
      patched('declined', false),
      { type: 'warning', code: 'permission_denied', message: `Permission denied: apply_patch: ${patchRefused}` },
      patched('accepted', false),
      { type: 'warning', code: 'permission_denied', message: `Permission denied: apply_patch: ${patchRefused}` },
      // call_0008: "Process exited with code 1" (Read-only file system); no refusal, the sandbox made it fail.
      sandboxFailed,
      // call_0010, call_0012: refused escalations, no exit code.
      escalated('declined', { is_success: false }),
      { type: 'warning', code: 'permission_denied', message: `Permission denied: exec_command: ${escalationRefused}` },
      escalated('accepted', { is_success: false }),
      { type: 'warning', code: 'permission_denied', message: `Permission denied: exec_command: ${escalationRefused}` },
      // call_0014 has its item (an ordinary exit 1 of grep: a search), in its workdir.
      { type: 'search', query: 'zzz_none', path: `${project}/docs/guide.md`, is_success: true },
      { type: 'agent', message: 'Done: some steps were refused.' },
      { type: 'usage', tokens: { input: 10520, output: 160, cache_read: 280, cache_write: 0, reasoning: 28 } },
    ]);
    expect(metrics.permission_denials).toBe(4);
    expect(metrics.input.rules['response_item:call']).toBe(5);
  });

  test('exec-denied: three commands the sandbox denied, no item anywhere, each from its raw pair', async () => {
    const { events } = await read(surface('exec-denied'));
    const failed = (command: string) => ({
      type: 'command',
      command,
      working_directory: project,
      exit_code: 1,
      is_success: false,
    });
    expect(events).toEqual([
      failed('touch sandbox-fail.txt && rm README.md'),
      failed(`touch ${project}/shell-made.txt && rm ${project}/README.md`),
      failed(`rm ${project}/notes.md`),
      { type: 'agent', message: 'Tried.' },
      { type: 'usage', tokens: { input: 15700, output: 80, cache_read: 1300, cache_write: 0, reasoning: 130 } },
    ]);
  });

  const onRequest = 'app-server on-request: a declined patch with an item is that item alone; a declined escalation';
  test(`${onRequest} without one is its raw pair`, async () => {
    const { events, metrics } = await read(surface('app-onrequest'));
    expect(events.filter((event) => event.type !== 'agent' && event.type !== 'usage')).toEqual([
      {
        type: 'command',
        command: 'pwd && cat guide.md',
        working_directory: `${project}/docs`,
        exit_code: 0,
        is_success: true,
      },
      // FileChange declined, then its output "patch rejected by user": one event.
      patched('declined', false),
      patched('accepted', true),
      sandboxFailed,
      // "exec_command failed: CreateProcess { … Rejected("rejected by user") }": no exit code, failed; the client
      // declined it, no policy: no permission_denied.
      escalated('declined', { is_success: false }),
      escalated('accepted', { exit_code: 0, is_success: true }),
      { type: 'search', query: 'zzz_none', path: `${project}/docs/guide.md`, is_success: true },
    ]);
    expect(metrics.permission_denials).toBeUndefined();
  });

  test('a 0.137 rollout (codex-acp) has no items: every call comes from its raw pair, once', async () => {
    const { events } = await read(surface('acp-acceptall'));
    expect(events.map((event) => [event.type, event.command ?? event.path ?? event.query, event.is_success])).toEqual([
      ['command', 'pwd && cat guide.md', true],
      ['write', `${project}/declined-patch.txt`, true],
      ['write', `${project}/accepted-patch.txt`, true],
      ['command', 'touch sandbox-fail.txt && rm README.md', false],
      ['command', 'touch declined-cmd.txt && rm notes.md', true],
      ['command', 'touch accepted-cmd.txt && rm notes.txt', true],
      ['search', `${project}/docs/guide.md`, true],
      ['usage', undefined, undefined],
    ]);
  });
});

describe('raw calls: order and edges', () => {
  const line = (lines: string[], call: string, type: string) =>
    lines.findIndex((text) => text.includes(`"call_id":"${call}"`) && text.includes(`"type":"${type}"`));

  test('an item written after its call was reported from the output adds nothing', async () => {
    const path = edited((lines) => {
      // call_0002's CommandExecution item moved after its function_call_output.
      const item = lines.findIndex((text) => text.includes('"type":"CommandExecution","id":"call_0002"'));
      const [moved] = lines.splice(item, 1);
      lines.splice(line(lines, 'call_0002', 'function_call_output') + 1, 0, moved!);
      return lines;
    });
    const commands = (await read(path)).events.filter((event) => event.command === 'pwd && cat guide.md');
    // Reported once, from the raw pair (its output says exit code 0).
    expect(commands).toEqual([
      {
        type: 'command',
        command: 'pwd && cat guide.md',
        working_directory: `${project}/docs`,
        exit_code: 0,
        is_success: true,
      },
    ]);
  });

  test('a call whose output never came is reported at the end, its outcome unknown', async () => {
    const path = edited((lines) => lines.slice(0, line(lines, 'call_0008', 'function_call') + 1));
    const { events } = await read(path);
    expect(events.at(-1)).toEqual({
      type: 'command',
      command: 'touch sandbox-fail.txt && rm README.md',
      working_directory: project,
    });
  });

  test('a patch of several files is one write per file', async () => {
    const path = edited((lines) =>
      lines.map((text) =>
        text.replace(
          '*** Add File: declined-patch.txt\\n+should not exist\\n',
          '*** Add File: a.txt\\n+a\\n*** Update File: docs/guide.md\\n@@\\n-x\\n+y\\n*** Delete File: notes.md\\n',
        ),
      ),
    );
    const writes = (await read(path)).events.filter((event) => event.type === 'write');
    expect(writes.slice(0, 3)).toEqual([
      { type: 'write', path: `${project}/a.txt`, is_success: false },
      { type: 'write', path: `${project}/docs/guide.md`, is_success: false },
      { type: 'write', path: `${project}/notes.md`, is_success: false },
    ]);
  });

  test('a call of a tool the table does not know, with no item, is unknown with the call and its output', async () => {
    const path = edited((lines) =>
      lines.map((text) =>
        text.replace(
          '"name":"exec_command","arguments":"{\\"cmd\\":\\"touch sandbox-fail',
          '"name":"view_image","arguments":"{\\"cmd\\":\\"touch sandbox-fail',
        ),
      ),
    );
    const unknown = (await read(path)).events.filter((event) => event.type === 'unknown');
    expect(unknown).toEqual([
      {
        type: 'unknown',
        raw: {
          call: expect.objectContaining({ type: 'function_call', call_id: 'call_0008', name: 'view_image' }),
          output: expect.stringContaining('Process exited with code 1'),
        },
      },
    ]);
  });
});
