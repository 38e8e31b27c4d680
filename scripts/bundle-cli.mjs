// The command line's code bundled from tsc's output (dist/bin/cli.js): a CLI run pays for one
// module load instead of sixty, which is most of its start-up. What only some commands need
// (the view, the report) is split into chunks loaded when they run, with the npm packages they
// import; npm packages stay imports of their own.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const outdir = new URL('../dist/bin/', import.meta.url).pathname;
// Chunks are named by content: an old build's would linger beside the new ones.
rmSync(outdir, { recursive: true, force: true });

await build({
  entryPoints: [new URL('../dist/src/interfaces/cli/cli.js', import.meta.url).pathname],
  outdir,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
