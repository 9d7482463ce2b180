// The JSON Schema (draft 2020-12) of demo.json, made from the zod schema: served at /schemas/demo/v1.json and kept in docs/.
import { z } from 'zod';
import { demoDocumentSchema } from './demo-document.schemas';

let cached: string | undefined;

/**
 * The JSON Schema of demo.json version 1, as text (two-space indents, final newline): what the instance serves
 * and what docs/demo-format.schema.json holds (test/demo-format.test.ts keeps the two equal; `node bin/run-ts.js scripts/demo-schema.ts` rewrites the file).
 */
export function demoJsonSchemaText(): string {
  cached ??= `${JSON.stringify(z.toJSONSchema(demoDocumentSchema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }), null, 2)}\n`;
  return cached;
}
