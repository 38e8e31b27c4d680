import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The TypeScript tests only: the build also emits JavaScript copies of them into dist/.
    include: ['test/**/*.test.ts'],
    // The suite runs on 2 cores next to other work, where a test that starts a few processes can
    // take seconds: the timeout is there to catch a hang, never to judge speed.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
