// Writes schemas/*.schema.json from the contract table (lib/kernel/contract.ts), and the event
// validators compiled from them (lib/kernel/validators.ts), so no schema compiler runs at run time.
import { writeFileSync } from 'node:fs';
import { allSchemas, validatorsModule } from '../lib/kernel/contract.js';
import { traceSchema } from '../lib/kernel/trace-contract.js';
import { compiledValidators } from './compile-validators.js';

const dir = new URL('../schemas/', import.meta.url);
for (const [file, schema] of Object.entries({ ...allSchemas(), 'trace.schema.json': traceSchema() })) {
  writeFileSync(new URL(file, dir), JSON.stringify(schema, null, 2) + '\n');
  console.log(`schemas/${file}`);
}
writeFileSync(new URL(`../lib/kernel/${validatorsModule}`, import.meta.url), compiledValidators());
console.log(`lib/kernel/${validatorsModule}`);
