// Writes schemas/*.schema.json from the contract table (schemas/contract.ts).
import { writeFileSync } from 'node:fs';
import { allSchemas } from '../schemas/contract.js';

const dir = new URL('../schemas/', import.meta.url);
for (const [file, schema] of Object.entries(allSchemas())) {
  writeFileSync(new URL(file, dir), JSON.stringify(schema, null, 2) + '\n');
  console.log(`schemas/${file}`);
}
