// The command line's code bundled from tsc's output (dist/bin/cli.js): a CLI run pays for one module load
// instead of sixty, which is most of its start-up. What only some commands need (the view, the report, the
// JetStream client) is split into chunks loaded when they run. The extras' packages (optional peer
// dependencies of the library) are bundled into those chunks, so the installed CLI does everything with none of
// them installed; the core's dependencies stay imports of the package's own.
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url);
const outdir = new URL('dist/bin/', root).pathname;
const { dependencies } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
// Chunks are named by content: an old build's would linger beside the new ones.
rmSync(outdir, { recursive: true, force: true });

await build({
  entryPoints: [new URL('dist/lib/interfaces/cli/cli.js', root).pathname],
  outdir,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // The price table stays the optional peer it is for the library (about 2 MB, loaded only to price tokens): a
  // command that prices says how to install it, and goes on without costs where it can.
  external: [...Object.keys(dependencies), '@pydantic/genai-prices'].flatMap((name) => [name, `${name}/*`]),
  // The NATS client's CommonJS parts require() Node's own modules, which an ES module bundle cannot do without a
  // require of its own (in every chunk: the helper that calls it lands in a shared one).
  banner: {
    js:
      "import { createRequire as __createRequire } from 'node:module'; " +
      'const require = __createRequire(import.meta.url);',
  },
  logLevel: 'warning',
});
