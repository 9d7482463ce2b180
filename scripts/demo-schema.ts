// Writes docs/demo-format.schema.json from the zod schema of demo.json (test/demo-format.test.ts checks it is current).
import { writeFileSync } from 'node:fs';
import { demoJsonSchemaText } from '../src/demo-format/demo-json-schema';

writeFileSync(new URL('../docs/demo-format.schema.json', import.meta.url), demoJsonSchemaText());
