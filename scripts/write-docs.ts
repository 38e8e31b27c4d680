// Writes docs/harnesses/<name>.md for every harness (scripts/harness-docs.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { harnesses } from '../lib/runtime/registry.js';
import { harnessPage, pagePath } from './harness-docs.js';

mkdirSync(new URL('../docs/harnesses/', import.meta.url), { recursive: true });
for (const harness of harnesses.values()) {
  writeFileSync(pagePath(harness.name), harnessPage(harness));
  console.log(`docs/harnesses/${harness.name}.md`);
}
