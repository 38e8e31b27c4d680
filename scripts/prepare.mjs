// `npm install <a clone>` (or --install-links) runs `prepare` in a folder whose devDependencies
// were never installed, so `tsc` is missing: install them from the lockfile first, as npm itself
// does for a git URL, then build. In a working clone (npm ci, npm install) it only builds.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const root = new URL('..', import.meta.url).pathname;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
try {
  createRequire(import.meta.url).resolve('typescript/package.json');
} catch {
  console.error('harness-events: installing its build tools (devDependencies) to build it from source');
  execFileSync(npm, ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}
execFileSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
