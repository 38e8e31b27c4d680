import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * This package's version, read once from its package.json (two folders above lib/kernel/ in the sources, three above
 * dist/lib/kernel/, two above the bundled dist/bin/).
 */
export function packageVersion(): string {
  if (cached !== undefined) return cached;
  for (let dir = dirname(fileURLToPath(import.meta.url)), up = 0; up < 4; up++, dir = dirname(dir)) {
    let manifest: { name?: unknown; version?: unknown };
    try {
      manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    if (manifest.name === 'harness-events' && typeof manifest.version === 'string') return (cached = manifest.version);
  }
  throw new Error('harness-events: its package.json was not found');
}
