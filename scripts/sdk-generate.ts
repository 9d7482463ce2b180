// `npm run sdk:generate`: writes the SDK's generated files (scripts/sdk-schema.ts lists them) from the
// OpenAPI document of an app built in-process (nothing listens; an empty in-memory database) and from the
// server's event kinds. With --check it writes nothing and exits 1 when a committed file is stale.
// Run it after changing a route or an event kind; test/sdk/package.test.ts fails until then.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { buildApp } from '../src/app';
import { testConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { JobQueue } from '../src/jobs/queue';
import { renderSdkFiles, SDK_GENERATED_FILES, servedDocument, staleSdkFiles } from './sdk-schema';

const check = process.argv.includes('--check');
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
  if (check) {
    const stale = staleSdkFiles(files, (path) => (existsSync(path) ? readFileSync(path, 'utf8') : ''));
    if (stale.length > 0) {
      console.error(`stale: ${stale.join(', ')}: run \`npm run sdk:generate\` and commit them`);
      process.exitCode = 1;
    } else console.log('the SDK\'s generated files are up to date');
  } else {
    for (const [key, path] of Object.entries(SDK_GENERATED_FILES)) writeFileSync(path, files[key as keyof typeof files]);
    console.log(`wrote ${Object.values(SDK_GENERATED_FILES).join(', ')}`);
  }
} finally {
  await app.close();
  await database.close();
}
