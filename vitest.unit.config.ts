/**
 * `npm run test:unit`: the fast part of the suite, the tests that start no process (no child, no nats-server, no
 * Chromium, no tmux) and need no build: scripts/unit-tests.ts picks them from what each file imports.
 * `npm test` runs them too, with everything else and the coverage floor.
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';
import { unitTestFiles } from './scripts/unit-tests.js';

export default defineConfig({ ...base, test: { ...base.test, include: unitTestFiles(import.meta.dirname) } });
