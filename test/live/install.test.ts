/** Finding the live suite's CLIs (what its config does when loaded) installs nothing: `npm run live:install` does. */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const cache = mkdtempSync(join(tmpdir(), 'harness-events-live-cache-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

test('with install: false, a CLI not in the cache is skipped with the command that installs it', async () => {
  process.env.LIVE_CACHE = cache;
  const { installAll, isInstalled } = await import('../../live/install.js');
  const { clis } = await import('../../live/clis.js');
  const logged: string[] = [];
  const results = await installAll('pinned', (line) => logged.push(line), { install: false });
  expect(results.filter(isInstalled)).toEqual([]);
  expect(results.map((result) => 'reason' in result && result.reason)).toEqual(
    clis.map((cli) => `${cli.pkg}@${cli.pinned} is not installed in ${cache} (npm run live:install installs it)`),
  );
  expect(logged).toEqual([]);
  expect(readdirSync(cache)).toEqual([]);
});
