/** The harness reference pages in docs/harnesses/ are what the code's tables make (npm run docs). */
import { existsSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { harnesses } from '../lib/runtime/registry.js';
import { harnessPage, pagePath } from '../scripts/harness-docs.js';

for (const harness of harnesses.values()) {
  test(`docs/harnesses/${harness.name}.md is generated from the harness's tables`, () => {
    expect(existsSync(pagePath(harness.name)), 'run npm run docs').toBe(true);
    const page = harnessPage(harness);
    expect(page).not.toMatch(/\{\{\w+\}\}/);
    expect(readFileSync(pagePath(harness.name), 'utf8')).toBe(page);
  });
}
