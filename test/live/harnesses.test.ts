import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { argsOf, commandLines, harnessNamed, type SpawnHarnessOptions } from '../../lib/index.js';
import { launch, liveHarnesses } from '../../live/harnesses.js';
import { createPlace, type Place } from '../../live/workspace.js';

const row = (id: string) => liveHarnesses.find((r) => r.id === id)!;
let place: Place | undefined;
afterEach(() => place?.remove());

test(
  'pi: the scripted provider and its model from the offline part, then the library builds the command line; ' +
    'models.json in the HOME',
  () => {
    place = createPlace();
    const { env, ...options } = launch(row('pi'), place, 'http://127.0.0.1:9', ['--tools', 'read']);
    expect(argsOf(commandLines.pi, { prompt: 'PROMPT', ...options })).toEqual([
      '--mode',
      'json',
      '--model',
      'fake-model',
      '--provider',
      'lab',
      '--tools',
      'read',
    ]);
    expect(env.PI_OFFLINE).toBe('1');
    expect(existsSync(join(place.home, '.pi', 'agent', 'models.json'))).toBe(true);
  },
);

test("qwen through ACP: the preset's command line, then the OpenAI auth type; the endpoint in the environment", () => {
  place = createPlace();
  const { env, ...options } = launch(row('qwen-acp'), place, 'http://127.0.0.1:9');
  const launched = harnessNamed('acp').launch!({
    harness: 'acp',
    command: '/opt/qwen',
    prompt: 'PROMPT',
    cwd: place.workspace,
    ...options,
  });
  expect([launched.command, ...(launched.args ?? [])]).toEqual([
    '/opt/qwen',
    '--acp',
    '--approval-mode',
    'yolo',
    '--auth-type',
    'openai',
  ]);
  expect(env.OPENAI_BASE_URL).toBe('http://127.0.0.1:9/v1');
});

test("every row's command line is the lab's, every tool call approved: permissions 'bypass'", () => {
  for (const live of liveHarnesses) {
    place = createPlace();
    const { env: _env, ...options } = launch(live, place, 'http://127.0.0.1:9');
    expect(options.permissions, live.id).toBe('bypass');
    // Words: Cline gives a one-word prompt a newline (lib/harnesses/cline/launch.ts).
    const prompt = 'the prompt';
    const launched = harnessNamed(live.harness).launch!({
      harness: live.harness,
      prompt,
      cwd: place.workspace,
      ...options,
    } as SpawnHarnessOptions);
    const argv = launched.args ?? [];
    if (live.harness !== 'acp') {
      const row = commandLines[live.harness as keyof typeof commandLines];
      expect(argv, live.id).toEqual(argsOf(row, { prompt, ...options }));
      for (const flag of row.permissions.bypass ?? []) expect(argv, live.id).toContain(flag);
    }
    place.remove();
    place = undefined;
  }
  // The ACP rows: their presets' auto-approve flags are there too.
  place = createPlace();
  const copilot = harnessNamed('acp').launch!({
    harness: 'acp',
    prompt: 'PROMPT',
    cwd: place.workspace,
    ...launch(row('copilot-acp'), place, 'http://127.0.0.1:9'),
  } as SpawnHarnessOptions);
  expect(copilot.args).toContain('--allow-all-tools');
});

test('every row runs a harness the library has, and each CLI once without ACP', () => {
  for (const { harness } of liveHarnesses) expect(() => harnessNamed(harness)).not.toThrow();
  const direct = liveHarnesses.filter((r) => r.agent === undefined).map((r) => r.cli);
  expect(new Set(direct).size).toBe(9);
});
