/**
 * The scripted model server's Gemini protocol, spoken to with plain fetch: what a turn streams, which turn a
 * request gets, a request without streaming.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { scriptFor } from '../../../lib/testing/index.js';
import { events, post, server, start, stop, turn } from '../scripted-server.js';

afterEach(stop);

describe('Gemini', () => {
  test(
    'thought part, text in two chunks, function calls ' + 'without ids, the last chunk with STOP and usageMetadata',
    async () => {
      await start(scriptFor('Read it', [{ text: 'x' }, turn]));
      const body = {
        contents: [
          { role: 'user', parts: [{ text: 'Read it' }] },
          { role: 'model', parts: [{ functionCall: { name: 'ls', args: {} } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'ls', response: {} } }] },
        ],
        tools: [{ functionDeclarations: [{ name: 'read_file' }] }],
      };
      const stream = await events(await post('/v1beta/models/gemini-x:streamGenerateContent', body));
      expect(stream.map((e) => e.data.candidates[0].content.parts)).toEqual([
        [{ text: 'Think first.', thought: true }],
        [{ text: 'Reading t' }],
        [{ text: 'he file.' }],
        [{ functionCall: { name: 'Read', args: { file_path: '/w/README.md' } } }],
      ]);
      expect(stream.map((e) => e.data.candidates[0].finishReason)).toEqual([undefined, undefined, undefined, 'STOP']);
      expect(stream.at(-1)!.data.usageMetadata).toEqual({
        promptTokenCount: 1500,
        candidatesTokenCount: 20,
        cachedContentTokenCount: 1000,
        thoughtsTokenCount: 10,
        totalTokenCount: 1530,
      });
      expect(
        stream.every((e) => e.data.modelVersion === 'gemini-x' && e.data.responseId === 'scripted-scripted_0001'),
      ).toBe(true);
      expect(server!.requests[0]).toMatchObject({ protocol: 'gemini', turn: 1, toolResults: 1, outcome: 'served' });
    },
  );

  test(':generateContent answers one response', async () => {
    await start(scriptFor('Hi', [{ text: 'Hello.' }]));
    const response = await post('/v1beta/models/gemini-x:generateContent', {
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
    });
    expect(((await response.json()) as any).candidates).toEqual([
      { content: { role: 'model', parts: [{ text: 'Hello.' }] }, index: 0, finishReason: 'STOP' },
    ]);
  });
});
