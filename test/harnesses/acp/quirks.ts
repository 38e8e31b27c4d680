/**
 * The runs and messages the per-agent quirks tests (quirks-copilot-droid-kilo, quirks-claude-qwen-gemini) share:
 * a capture of test/fixtures/acp/ with its lines, or authored messages in an agent's shape, read as acp.
 */
import { bodies, jsonl, parsedLines, run, runFixture } from '../../helpers.js';

export const options = { harness: 'acp' as const, cwd: '/home/user/project' };
export const project = '/home/user/project';

export async function capture(file: string) {
  const result = await runFixture(`acp/${file}`, options);
  return { ...result, bodies: bodies(result.events), lines: parsedLines(`acp/${file}`) as Record<string, any>[] };
}
export async function authored(...lines: unknown[]) {
  return bodies((await run(jsonl(...lines), options)).events);
}
export const update = (sessionUpdate: string, fields: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId: 's', update: { sessionUpdate, ...fields } },
});
export const agentInfo = (name: string) => ({
  jsonrpc: '2.0',
  id: 1,
  result: { protocolVersion: 1, agentInfo: { name, version: '1' } },
});
