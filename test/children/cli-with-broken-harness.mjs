// The CLI (dist/lib/interfaces/cli/cli.js, what bin/'s bundle is built from) with one more harness, "broken"
// (test/helpers.ts, loaded through tsx: dist holds the library only), whose every record becomes an event that
// breaks its schema: with --strict a stage throws mid-run, which no built-in harness does on any input.
// Used as the CLI is: node cli-with-broken-harness.mjs run --harness broken --strict -- ...
import { register } from 'tsx/esm/api';
import { harnesses } from '../../dist/lib/runtime/registry.js';
import { main } from '../../dist/lib/interfaces/cli/cli.js';

register();
const { brokenHarness } = await import('../helpers.ts');
harnesses.set(brokenHarness.name, brokenHarness);
process.exitCode = await main(process.argv.slice(2));
