import { defineConfig } from 'vitest/config';

// The suite runs on 2 cores next to other work, where a test that starts a few processes can
// take seconds: the timeout is there to catch a hang, never to judge speed.
export default defineConfig({ test: { testTimeout: 60_000, hookTimeout: 60_000 } });
