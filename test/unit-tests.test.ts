/**
 * The selection of `npm run test:unit` (scripts/unit-tests.ts): a test file that starts a process, itself or through a
 * helper it imports, is left out; so are the slow pure ones; the rest are in.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { unitTestFiles } from '../scripts/unit-tests.js';

const scratch = mkdtempSync(join(tmpdir(), 'harness-events-unit-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test('files that start a process, directly or through a helper, and the slow pure ones are left out', () => {
  const files: Record<string, string> = {
    'test/kernel/pure.test.ts': "import { parse } from '../../lib/parse.js';\n",
    'test/kernel/uses-pure-helper.test.ts': "import { fixture } from '../helpers.js';\n",
    'test/helpers.ts': 'export const fixture = 1;\n',
    'test/runtime/spawns.test.ts': "import { spawn } from 'node:child_process';\n",
    'test/runtime/runs.test.ts': "import { spawnHarness } from '../../lib/index.js';\n",
    'test/interfaces/via-helper.test.ts': "import { start } from '../servers.js';\n",
    'test/servers.ts': "import { startNats } from './nats.js';\nexport const start = startNats;\n",
    'test/nats.ts': "export const startNats = () => 'nats-server';\n",
    'test/interfaces/browser.test.ts': "import { chromium } from 'playwright-core';\n",
    'test/kernel/shell/properties.test.ts': "import fc from 'fast-check';\n",
    'test/hostile/limits.test.ts': '',
    'test/live/drift.test.ts': '',
    'test/fixtures/claude-code/x.test.ts': '',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), text);
  }
  expect(unitTestFiles(scratch)).toEqual(['test/kernel/pure.test.ts', 'test/kernel/uses-pure-helper.test.ts']);
});

test('the suite: the unit files include the transforms and harness rules, none of the process-starting ones', () => {
  const files = unitTestFiles(new URL('..', import.meta.url).pathname);
  expect(files).toContain('test/transforms/split-lines.test.ts');
  expect(files).toContain('test/harnesses/codex/fixtures.test.ts');
  expect(files).not.toContain('test/runtime/run/spawn.test.ts');
  expect(files).not.toContain('test/interfaces/jetstream/roundtrip.test.ts');
  expect(files).not.toContain('test/interfaces/view/tmux.test.ts');
});
