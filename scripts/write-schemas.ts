// Writes schemas/*.schema.json from the contract table (src/kernel/contract.ts), and the event
// validators compiled from them (src/kernel/validators.ts), so no schema compiler runs at run time.
import { writeFileSync } from 'node:fs';
import { allSchemas, validatorsModule } from '../src/kernel/contract.js';
import { compiledValidators } from './compile-validators.js';

const dir = new URL('../schemas/', import.meta.url);
for (const [file, schema] of Object.entries(allSchemas())) {
  writeFileSync(new URL(file, dir), JSON.stringify(schema, null, 2) + '\n');
  console.log(`schemas/${file}`);
}
writeFileSync(new URL(`../src/kernel/${validatorsModule}`, import.meta.url), compiledValidators());
console.log(`src/kernel/${validatorsModule}`);
