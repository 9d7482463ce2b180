// Writes the OpenAPI document the server serves at GET /v1/openapi.json to a file (or stdout), from an
// in-process app on an empty in-memory database: `node bin/run-ts.js scripts/openapi-dump.ts [out.json]`.
import { writeFileSync } from 'node:fs';
import { buildApp } from '../src/app';
import { testConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { JobQueue } from '../src/jobs/queue';

const out = process.argv[2];
const database = await openDatabase({});
const { app } = await buildApp({
  config: testConfig(),
  database,
  secretKey: 'openapi-dump-secret-key-that-is-long-enough',
  queue: new JobQueue(database, { work: false }),
});
try {
  await app.ready();
  const res = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`GET /v1/openapi.json answered ${res.statusCode}: ${res.body}`);
  const text = `${JSON.stringify(res.json(), null, 2)}\n`;
  if (out) writeFileSync(out, text);
  else process.stdout.write(text);
} finally {
  await app.close();
  await database.close();
}
