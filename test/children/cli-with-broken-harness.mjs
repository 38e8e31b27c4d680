// The CLI (dist/src/interfaces/cli/cli.js, what bin/'s bundle is built from) with one more harness, "broken"
// (test/helpers.ts, built into dist/), whose every record becomes an event that breaks its
// schema: with --strict a stage throws mid-run, which no built-in harness does on any input.
// Used as the CLI is: node cli-with-broken-harness.mjs run --harness broken --strict -- ...
import { harnesses } from '../../dist/src/runtime/registry.js';
import { main } from '../../dist/src/interfaces/cli/cli.js';
import { brokenHarness } from '../../dist/test/helpers.js';

harnesses.set(brokenHarness.name, brokenHarness);
process.exitCode = await main(process.argv.slice(2));
