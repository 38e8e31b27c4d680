import { readFileSync, readdirSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { allSchemas, eventTypeNames, eventTypes } from '../../lib/kernel/contract.js';
import { traceSchema } from '../../lib/kernel/trace-contract.js';
import { violationOf } from '../../lib/transforms/validate.js';
import type { EventOf, HarnessEvent } from '../../lib/kernel/events.js';

const schemasDir = new URL('../../schemas/', import.meta.url);
const ts = '2026-11-30T02:06:45.602Z';

describe('the published schemas', () => {
  test('the files in schemas/ are exactly what the contract table generates (npm run schemas)', () => {
    const generated = { ...allSchemas(), 'trace.schema.json': traceSchema() };
    const onDisk = readdirSync(schemasDir)
      .filter((name) => name.endsWith('.schema.json'))
      .sort();
    expect(onDisk).toEqual(Object.keys(generated).sort());
    for (const [file, schema] of Object.entries(generated)) {
      expect(JSON.parse(readFileSync(new URL(file, schemasDir), 'utf8')), file).toEqual(schema);
    }
  });

  test('one schema per event type of docs/events.md', () => {
    expect(eventTypeNames).toEqual([
      'agent',
      'reasoning',
      'command',
      'read',
      'write',
      'search',
      'list',
      'skill',
      'orchestration',
      'usage',
      'error',
      'warning',
      'system',
      'gg',
      'unknown',
    ]);
  });

  // A consumer in another language loads the files as they are: compile them from disk.
  const ajv = new Ajv2020({ discriminator: true });
  for (const file of readdirSync(schemasDir).filter((name) => name.endsWith('.schema.json'))) {
    ajv.addSchema(JSON.parse(readFileSync(new URL(file, schemasDir), 'utf8')));
  }
  const union = ajv.getSchema('https://harness-events.dev/schemas/event.schema.json')!;

  // One valid example per type, written as the TypeScript type (so the types and the schemas are checked together).
  const examples: HarnessEvent[] = [
    { type: 'agent', timestamp: ts, session_id: 's', message: 'hi' },
    { type: 'reasoning', timestamp: ts, message: 'think' },
    { type: 'command', timestamp: ts, command: 'ls', working_directory: '/w', exit_code: 2, is_success: false },
    { type: 'read', timestamp: ts, path: '/a', start_line: 1, end_line: 3, is_success: true },
    { type: 'write', timestamp: ts, path: '/a' },
    { type: 'search', timestamp: ts, query: 'x', path: '/w' },
    { type: 'list', timestamp: ts },
    { type: 'skill', timestamp: ts, path: '/w/skills/a/SKILL.md', skill_name: 'a' },
    {
      type: 'orchestration',
      timestamp: ts,
      action: 'subagent_started',
      subagent_id: 'id',
      subagent_name: 'n',
      is_success: true,
    },
    {
      type: 'usage',
      timestamp: ts,
      tokens: { input: 1, output: 2, cache_read: 3, cache_write: 4, reasoning: 5 },
      cost: 0.1,
    },
    { type: 'error', timestamp: ts, message: 'boom', code: 'E' },
    { type: 'warning', timestamp: ts, message: 'careful' },
    { type: 'system', timestamp: ts, stage: 'probe_harness', status: 'completed', message: 'claude 2.1' },
    { type: 'gg', timestamp: ts, event: { anything: [1, null] } },
    { type: 'unknown', timestamp: ts, raw: 'not json' },
  ];

  test(
    'lib/kernel/validators.ts (committed, npm run schemas) judges as ajv judges the schemas, on every example ' +
      'and on each one with a field missing, extra, or of a wrong kind',
    () => {
      const wrong = [null, -1, 1.5, '', 'x', {}, [], true];
      const cases: unknown[] = [...examples, { type: 'nonsense', timestamp: ts }, null, 42];
      for (const event of examples) {
        cases.push({ ...event, content: 'file text' });
        for (const field of Object.keys(event)) {
          const { [field]: _dropped, ...without } = event as unknown as Record<string, unknown>;
          cases.push(without);
          for (const value of wrong) cases.push({ ...event, [field]: value });
        }
      }
      expect(cases.length).toBeGreaterThan(400);
      for (const event of cases) {
        expect(violationOf(event) === undefined, JSON.stringify(event)).toBe(union(event));
      }
    },
  );

  test('every example is valid against its own schema and the union', () => {
    expect(examples.map((e) => e.type)).toEqual(eventTypeNames);
    for (const event of examples) expect(union(event), JSON.stringify(union.errors)).toBe(true);
  });

  test('every schema is closed: an extra field is rejected, for every type', () => {
    for (const event of examples) expect(union({ ...event, content: 'file text' })).toBe(false);
  });

  test('required fields, enumerations and formats are enforced', () => {
    const invalid: unknown[] = [
      { type: 'read', timestamp: ts },
      { type: 'read', timestamp: ts, path: '/a', start_line: 0 },
      { type: 'command', timestamp: ts, command: 'ls', exit_code: 1.5 },
      { type: 'orchestration', timestamp: ts, action: 'subagent_paused' },
      { type: 'usage', timestamp: ts, tokens: { input: -1 } },
      { type: 'usage', timestamp: ts, tokens: { total: 3 } },
      { type: 'system', timestamp: ts, stage: 'probe_harness', status: 'completed', message: 'm', session_id: 's' },
      { type: 'agent', timestamp: '2026-11-30', message: 'm' },
      { type: 'agent', timestamp: ts, message: 'm', session_id: '' },
      { type: 'agent', timestamp: ts, message: null },
      { type: 'nonsense', timestamp: ts },
    ];
    for (const event of invalid) expect(union(event), JSON.stringify(event)).toBe(false);
    // The validators the library runs (compiled at build time) agree with the files on disk.
    for (const event of invalid) expect(violationOf(event), JSON.stringify(event)).toEqual(expect.any(String));
    for (const event of examples) expect(violationOf(event)).toBeUndefined();
    for (const event of examples)
      expect(violationOf({ ...event, content: 'file text' })).toBe(
        `${event.type} event breaks its schema: ${event.type} must NOT have additional properties`,
      );
  });

  test(
    "a consumer's ajv without the discriminator keyword: strict mode refuses the schema; strict off gives the " +
      'same verdicts (README)',
    () => {
      const files = readdirSync(schemasDir).filter((name) => name.endsWith('.schema.json'));
      const load = (options: { strict?: boolean }) => {
        const plain = new Ajv2020(options);
        for (const file of files) plain.addSchema(JSON.parse(readFileSync(new URL(file, schemasDir), 'utf8')));
        return plain.getSchema('https://harness-events.dev/schemas/event.schema.json')!;
      };
      expect(() => load({})).toThrow('strict mode: unknown keyword: "discriminator"');
      const lenient = load({ strict: false });
      for (const event of examples) {
        expect(lenient(event)).toBe(true);
        expect(lenient({ ...event, content: 'file text' })).toBe(false);
      }
    },
  );

  test('the TypeScript types reject what the schemas reject', () => {
    // Compile-time checks (npm run typecheck covers test/): each line below must be a type error.
    // @ts-expect-error a read carries no file contents
    const withContent: EventOf<'read'> = { type: 'read', timestamp: ts, path: '/a', content: 'x' };
    const systemWithSession: EventOf<'system'> = {
      type: 'system',
      timestamp: ts,
      stage: 'teardown',
      status: 'started',
      message: 'm',
      // @ts-expect-error system events carry no session id
      session_id: 's',
    };
    // @ts-expect-error path is required
    const readWithoutPath: EventOf<'read'> = { type: 'read', timestamp: ts };
    // @ts-expect-error action is an enumeration
    const badAction: EventOf<'orchestration'> = { type: 'orchestration', timestamp: ts, action: 'subagent_paused' };
    for (const event of [withContent, systemWithSession, readWithoutPath, badAction]) expect(union(event)).toBe(false);
  });

  test('each row of the table lists its fields once', () => {
    for (const row of Object.values(eventTypes)) {
      const required = Object.keys(row.required);
      for (const name of Object.keys(row.optional)) expect(required).not.toContain(name);
    }
  });
});
