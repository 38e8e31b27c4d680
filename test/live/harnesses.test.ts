import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { argv, launch, liveHarnesses } from '../../live/harnesses.js';
import { createPlace, type Place } from '../../live/workspace.js';

describe('the launch table', () => {
  const oneShot = liveHarnesses.filter((row) => !row.acp);
  const acp = liveHarnesses.filter((row) => row.acp);

  test.each(oneShot.map((row) => row.id))('%s: the prompt once, extra arguments before it, the model as --model', (id) => {
    const args = argv[id]({ prompt: 'PROMPT', model: 'MODEL', extraArgs: ['EXTRA'] });
    expect(args.filter((arg) => arg === 'PROMPT')).toEqual(['PROMPT']);
    expect(args.indexOf('EXTRA')).toBeGreaterThan(-1);
    expect(args[args.indexOf('MODEL') - 1]).toBe('--model');
    // A positional prompt comes last, after everything else; a prompt given by -p is its value.
    const at = args.indexOf('PROMPT');
    expect(at === args.length - 1 || args[at - 1] === '-p').toBe(true);
    if (at === args.length - 1) expect(args.indexOf('EXTRA')).toBeLessThan(at);
    expect(argv[id]({ prompt: 'PROMPT' })).not.toContain('--model');
  });

  test.each(acp.map((row) => row.id))('%s: ACP mode, the prompt left to the protocol', (id) => {
    const args = argv[id]({ prompt: 'PROMPT', extraArgs: ['EXTRA'] });
    expect(args[0]).toBe('--acp');
    expect(args).not.toContain('PROMPT');
    expect(args.at(-1)).toBe('EXTRA');
  });

  describe('with the offline part', () => {
    let place: Place | undefined;
    afterEach(() => place?.remove());

    test('pi: the scripted provider and its model from the offline part, its models.json in the HOME', () => {
      place = createPlace();
      const { args, env } = launch(liveHarnesses.find((row) => row.id === 'pi')!, place, 'http://127.0.0.1:9', 'PROMPT', ['--tools', 'read']);
      expect(args).toEqual(['--mode', 'json', '--model', 'fake-model', '--provider', 'lab', '--tools', 'read', 'PROMPT']);
      expect(env.PI_OFFLINE).toBe('1');
      expect(existsSync(join(place.home, '.pi', 'agent', 'models.json'))).toBe(true);
    });

    test('qwen through ACP: the OpenAI auth type after the ACP flags, the endpoint in the environment', () => {
      place = createPlace();
      const { args, env } = launch(liveHarnesses.find((row) => row.id === 'qwen-acp')!, place, 'http://127.0.0.1:9', 'PROMPT');
      expect(args).toEqual(['--acp', '--approval-mode', 'yolo', '--auth-type', 'openai']);
      expect(env.OPENAI_BASE_URL).toBe('http://127.0.0.1:9/v1');
    });
  });
});
