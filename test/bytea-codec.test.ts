import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, engine, type TestDatabase } from './helpers/database';

// Blobs (screenshots, snapshots, fonts) go in and out of the database as bytea. The embedded database has its
// own codec for them (db/client.ts, PGLITE_BYTEA): the bytes must come back exactly, as Buffers, on both engines.
describe(`bytea through the database (${engine})`, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  it.each([
    ['empty', Buffer.alloc(0)],
    ['every byte value', Buffer.from(Array.from({ length: 256 }, (_, i) => i))],
    ['3 MB of random bytes', randomBytes(3 * 1024 * 1024)],
    ['a view into a larger buffer', randomBytes(64).subarray(5, 37)],
  ])('round-trips %s', async (_name, bytes) => {
    const { rows } = await db.database.executeSql('select $1::bytea as b', [bytes]);
    const b = rows[0]?.b as Buffer;
    expect(Buffer.isBuffer(b)).toBe(true);
    expect(Buffer.compare(b, bytes)).toBe(0);
  });
});
