// `npm run sdk:generate`: writes the SDK's generated files from the OpenAPI document of an app built in-process
// (nothing listens; an empty in-memory database): packages/sdk/openapi.json and packages/sdk/src/schema.ts.
// Run it after changing a route; test/sdk/generated.test.ts fails until then.
import { writeFileSync } from 'node:fs';
import { buildApp } from '../src/app';
import { testConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { JobQueue } from '../src/jobs/queue';
import { renderSdkFiles, SDK_OPENAPI_PATH, SDK_SCHEMA_PATH, servedDocument } from './sdk-schema';

const database = await openDatabase({});
const { app } = await buildApp({
  config: testConfig(),
  database,
  secretKey: 'sdk-generate-secret-key-that-is-long-enough',
  queue: new JobQueue(database, { work: false }),
});
try {
  await app.ready();
  const files = await renderSdkFiles(await servedDocument(app));
  writeFileSync(SDK_OPENAPI_PATH, files.openapi);
  writeFileSync(SDK_SCHEMA_PATH, files.schema);
  console.log(`wrote ${SDK_OPENAPI_PATH} and ${SDK_SCHEMA_PATH}`);
} finally {
  await app.close();
  await database.close();
}
