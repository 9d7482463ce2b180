import fc from 'fast-check';

/**
 * A JSON Schema (the subset the route schemas produce in the OpenAPI document: type, enum, const,
 * anyOf/oneOf/allOf, properties/required/additionalProperties, items, min/max, formats and patterns)
 * turned into a fast-check arbitrary of values the schema accepts. For the fuzzer (test/fuzz.test.ts):
 * the values are meant to pass validation most of the time, so that requests reach the handlers; a few
 * miss (a format the server checks harder than the document says), which the fuzzer treats as any
 * other request.
 */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  format?: string;
  pattern?: string;
  $ref?: string;
}

// Strings are kept short: long ones are the mutations' business, and short bodies keep runs fast.
const STRING_CAP = 40;
const ARRAY_CAP = 4;

const text = (minLength: number, maxLength: number) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength, maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }) },
  );

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? STRING_CAP, min + STRING_CAP));
  const withinLength = (arb: fc.Arbitrary<string>) => arb.filter((s) => s.length >= min && s.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY));
  const date = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true });
  // Dates, times and uuids from their format (the document's patterns for them only restate it); anything
  // else from its pattern first, which is what the server checks (an e-mail's pattern is stricter than "email").
  switch (schema.format) {
    case 'date':
      return date.map((d) => d.toISOString().slice(0, 10));
    case 'date-time':
      return date.map((d) => d.toISOString());
    case 'uuid':
      return fc.uuid();
  }
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern, 'u');
    // fast-check reads no lookarounds: generated from the pattern without them, then held to the real one.
    const readable = schema.pattern.replace(/\(\?<?[!=][^()]*\)/g, '');
    try {
      return withinLength(fc.stringMatching(new RegExp(readable), { size: 'xsmall' })).filter((s) => pattern.test(s));
    } catch {
      // A pattern fast-check cannot generate from: the format, or plain text the server will likely refuse.
    }
  }
  if (schema.format === 'email') return withinLength(fc.emailAddress({ size: 'xsmall' }));
  if (schema.format === 'uri') return withinLength(fc.webUrl({ size: 'xsmall' }));
  return text(min, max);
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const low = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 1e-9) : schema.minimum;
  const high = schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : 1e-9) : schema.maximum;
  if (integer) {
    const min = Math.max(low ?? -1_000_000, Number.MIN_SAFE_INTEGER);
    const max = Math.min(high ?? 1_000_000, Number.MAX_SAFE_INTEGER);
    return fc.integer({ min: Math.ceil(min), max: Math.floor(Math.max(min, max)) });
  }
  return fc.double({ min: low ?? -1e6, max: high ?? 1e6, noNaN: true, noDefaultInfinity: true });
}

function objectArbitrary(schema: JsonSchema, root: unknown): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) model[name] = schemaArbitrary(property, root);
  const required = (schema.required ?? []).filter((name) => name in model);
  const known = fc.record(model, { requiredKeys: required }) as fc.Arbitrary<Record<string, unknown>>;
  if (schema.additionalProperties === false || Object.keys(properties).length > 0) return known;
  // A free-form object (a map): a few keys of whatever the schema allows.
  const values = typeof schema.additionalProperties === 'object' ? schemaArbitrary(schema.additionalProperties, root) : fc.jsonValue({ maxDepth: 1 });
  // Keys as `propertyNames` allows when it says (e.g. a share link's variable names), else any short string.
  const keys = schema.propertyNames ? (schemaArbitrary(schema.propertyNames, root) as fc.Arbitrary<string>) : fc.string({ minLength: 1, maxLength: 12 });
  return fc.dictionary(keys, values, { maxKeys: 3 });
}

function resolve(ref: string, root: unknown): JsonSchema {
  if (!ref.startsWith('#/')) throw new Error(`schemaArbitrary: only local $refs (${ref})`);
  let node = root as Record<string, unknown>;
  for (const part of ref.slice(2).split('/')) node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')] as Record<string, unknown>;
  if (!node) throw new Error(`schemaArbitrary: ${ref} resolves to nothing`);
  return node as JsonSchema;
}

/** Values `schema` accepts; `root` resolves `#/...` references (the whole OpenAPI document). */
export function schemaArbitrary(schema: JsonSchema, root: unknown = schema): fc.Arbitrary<unknown> {
  if (schema.$ref) return schemaArbitrary(resolve(schema.$ref, root), root);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => schemaArbitrary(s, root)));
  if (schema.allOf) {
    // The document's allOf only ever joins object schemas: their properties and requirements merged.
    const merged: JsonSchema = { type: 'object', properties: {}, required: [] };
    for (const part of schema.allOf.map((s) => (s.$ref ? resolve(s.$ref, root) : s))) {
      Object.assign(merged.properties!, part.properties);
      merged.required!.push(...(part.required ?? []));
      if (part.additionalProperties === false) merged.additionalProperties = false;
    }
    return objectArbitrary(merged, root);
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => schemaArbitrary({ ...schema, type }, root)));
  switch (types[0]) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? ARRAY_CAP, minLength + ARRAY_CAP));
      return fc.array(schema.items ? schemaArbitrary(schema.items, root) : fc.jsonValue({ maxDepth: 1 }), { minLength, maxLength });
    }
    case 'object':
      return objectArbitrary(schema, root);
    default:
      return schema.properties ? objectArbitrary(schema, root) : fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value of a JSON type `schema` does not have (for wrong-type mutations). */
export function wrongTypeArbitrary(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const types = new Set(Array.isArray(schema?.type) ? schema.type : schema?.type ? [schema.type] : []);
  const candidates: Array<[string, unknown]> = [
    ['string', 'not the right type'],
    ['integer', 12345],
    ['number', 1.5],
    ['boolean', true],
    ['array', [1, 'two']],
    ['object', { nested: true }],
    ['null', null],
  ];
  const wrong = candidates.filter(([type]) => !types.has(type) && !(type === 'integer' && types.has('number'))).map(([, value]) => value);
  return fc.constantFrom(...wrong);
}
