import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { argsOf, commandLines, harnessNamed } from '../../src/index.js';
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
      'PROMPT',
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

test('every row runs a harness the library has, and each CLI once without ACP', () => {
  for (const { harness } of liveHarnesses) expect(() => harnessNamed(harness)).not.toThrow();
  const direct = liveHarnesses.filter((r) => r.agent === undefined).map((r) => r.cli);
  expect(new Set(direct).size).toBe(9);
});
