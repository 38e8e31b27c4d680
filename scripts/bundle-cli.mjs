// The command line's code as one module (dist/cli.js), bundled from tsc's output: a CLI run
// pays for one module load instead of sixty, which is most of its start-up. npm packages stay
// imports of their own (stream-json; optional ones load only when a command needs them).
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('../dist/lib/cli.js', import.meta.url).pathname],
  outfile: new URL('../dist/cli.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
