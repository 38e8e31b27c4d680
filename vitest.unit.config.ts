/**
 * `npm run test:unit`: the fast part of the suite, the tests that start no process (no child, no nats-server, no
 * Chromium, no tmux) and need no build: scripts/unit-tests.ts picks them from what each file imports.
 * `npm test` runs them too, with everything else and the coverage floor.
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';
import { unitTestFiles } from './scripts/unit-tests.js';

// The files share one module graph (isolate: false): pure tests keep no state between files, and loading lib/ once
// instead of once per file is what takes the loop from 68 s to 10 s (85 files, 2026-12-05).
export default defineConfig({
  ...base,
  test: { ...base.test, include: unitTestFiles(import.meta.dirname), isolate: false },
});
