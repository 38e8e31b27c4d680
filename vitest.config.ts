import { defineConfig } from 'vitest/config';

// The TypeScript tests only: the build also emits JavaScript copies of them into dist/.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
  },
});
