import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

const MEMBERS = '/v1/team/members';
const HOUR = 3_600_000;

describe('API keys', () => {
  const clock = manualClock('2026-05-01T08:00:00.000Z');
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ clock, config: { KEY_ROTATION_GRACE: 2 * HOUR } });
  });
  afterAll(() => t?.close());

  const status = async (key: string) =>
    (await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) })).statusCode;

  it('shows the key once, in the documented format, and lists it by name, prefix and last four', async () => {
    const admin = await t.signUp();
    const res = await admin.inject({
      method: 'POST',
      url: '/v1/api-keys',
      payload: { name: 'CI deploys', scopes: ['team:read', 'demos:read', 'team:read'] },
    });
    expect(res.statusCode).toBe(201);
    const created = res.json().data;
    expect(created.key).toMatch(/^dsk_[0-9A-Za-z]{49}$/);
    expect(created).toMatchObject({
      name: 'CI deploys',
      prefix: created.key.slice(0, 8),
      last_four: created.key.slice(-4),
      scopes: ['team:read', 'demos:read'],
      member_id: admin.memberId,
      created_at: '2026-05-01T08:00:00.000Z',
      expires_at: null,
      replaced_by: null,
    });
    expect(created.id).toMatch(/^key_[0-9a-z]{26}$/);
    const list = await admin.inject({ method: 'GET', url: '/v1/api-keys' });
    expect(list.statusCode).toBe(200);
    const [listed] = list.json().data;
    expect(listed).toMatchObject({ id: created.id, name: 'CI deploys', last_four: created.key.slice(-4) });
    expect(listed.key).toBeUndefined();
    expect(list.body).not.toContain(created.key);
    expect(list.body).not.toContain(created.key.slice(8, -4));
  });

  it.each([
    [{ name: 'x', scopes: [] }, 'scopes'],
    [{ name: 'x', scopes: ['demos:admin'] }, 'scopes.0'],
    [{ name: '', scopes: ['team:read'] }, 'name'],
    [{ scopes: ['team:read'] }, 'name'],
    [{ name: 'x', scopes: ['team:read'], owner: 'someone' }, 'owner'],
    [{ name: 'x', scopes: ['team:read'], expires_at: 'tomorrow' }, 'expires_at'],
  ])('refuses the body %j with 400 naming %s and creates nothing', async (payload, field) => {
    const admin = await t.signUp();
    const res = await admin.inject({ method: 'POST', url: '/v1/api-keys', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_request');
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect((await admin.inject({ method: 'GET', url: '/v1/api-keys' })).json().meta.total).toBe(0);
  });

  it('answers 403 insufficient_scope naming the missing scope', async () => {
    const key = await t.apiKey(['demos:read']);
    const res = await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) });
    expect(res.statusCode).toBe(403);
    const { error } = res.json();
    expect(error.code).toBe('insufficient_scope');
    expect(error.message).toContain('team:read');
    expect(error.details).toEqual([{ field: 'scope', message: 'requires team:read' }]);
    const write = await t.app.inject({
      method: 'POST',
      url: MEMBERS,
      headers: bearer(await t.apiKey(['team:read'])),
      payload: { email: 'nobody@example.com', role: 'viewer' },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json().error.message).toContain('team:write');
  });

  it('checks the scope before the body: an unauthorised caller learns nothing from a bad body', async () => {
    const key = await t.apiKey(['team:read']);
    const res = await t.app.inject({ method: 'POST', url: MEMBERS, headers: bearer(key), payload: { bogus: 1 } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('insufficient_scope');
  });

  it('rotation: the old key works during the grace period and fails after it; the new key works', async () => {
    const admin = await t.signUp();
    const oldKey = await t.apiKey(['team:read'], admin);
    const [listed] = (await admin.inject({ method: 'GET', url: '/v1/api-keys' })).json().data;
    expect(await status(oldKey)).toBe(200);

    const rotated = await admin.inject({ method: 'POST', url: `/v1/api-keys/${listed.id}/rotate` });
    expect(rotated.statusCode).toBe(201);
    const fresh = rotated.json().data;
    expect(fresh.key).not.toBe(oldKey);
    expect(fresh.scopes).toEqual(['team:read']);
    expect(fresh.name).toBe(listed.name);

    const keys = (await admin.inject({ method: 'GET', url: '/v1/api-keys' })).json().data;
    const previous = keys.find((k: { id: string }) => k.id === listed.id);
    expect(previous).toMatchObject({ replaced_by: fresh.id, expires_at: '2026-05-01T10:00:00.000Z' });

    expect(await status(oldKey)).toBe(200);
    expect(await status(fresh.key)).toBe(200);
    clock.advance(2 * HOUR - 1);
    expect(await status(oldKey)).toBe(200);
    clock.advance(1);
    expect(await status(oldKey)).toBe(401);
    expect(await status(fresh.key)).toBe(200);
    clock.advance(-2 * HOUR);
  });

  it('rotation honours grace_period_seconds, and 0 ends the old key at once', async () => {
    const admin = await t.signUp();
    const oldKey = await t.apiKey(['team:read'], admin);
    const [listed] = (await admin.inject({ method: 'GET', url: '/v1/api-keys' })).json().data;
    const rotated = await admin.inject({
      method: 'POST',
      url: `/v1/api-keys/${listed.id}/rotate`,
      payload: { grace_period_seconds: 0 },
    });
    expect(rotated.statusCode).toBe(201);
    expect(await status(oldKey)).toBe(401);
    expect(await status(rotated.json().data.key)).toBe(200);
  });

  it('rotating a key already replaced is a 409: one key has at most one successor', async () => {
    const admin = await t.signUp();
    await t.apiKey(['team:read'], admin);
    const [listed] = (await admin.inject({ method: 'GET', url: '/v1/api-keys' })).json().data;
    expect((await admin.inject({ method: 'POST', url: `/v1/api-keys/${listed.id}/rotate` })).statusCode).toBe(201);
    const again = await admin.inject({ method: 'POST', url: `/v1/api-keys/${listed.id}/rotate` });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('conflict');
  });

  it('only its owner rotates a key: an admin gets 403 for another member’s key and revokes it instead', async () => {
    const admin = await t.signUp();
    const editor = await t.member(admin, 'editor');
    const theirs = await t.apiKey(['team:read'], editor);
    const listed = (await admin.inject({ method: 'GET', url: '/v1/api-keys' })).json().data;
    const id = listed.find((k: { member_id: string }) => k.member_id === editor.memberId).id;

    // The admin sees the key, so the refusal names the rule instead of pretending it is not there.
    const rotated = await admin.inject({ method: 'POST', url: `/v1/api-keys/${id}/rotate` });
    expect(rotated.statusCode).toBe(403);
    expect(rotated.json().error.code).toBe('forbidden');
    expect(rotated.json().error.message).toMatch(/only the member who owns an API key can rotate it/i);
    expect(rotated.body).not.toMatch(/dsk_/);
    const after = (await admin.inject({ method: 'GET', url: '/v1/api-keys' })).json();
    expect(after.meta.total).toBe(listed.length);
    expect(after.data.find((k: { id: string }) => k.id === id)).toMatchObject({ replaced_by: null, expires_at: null });
    expect(await status(theirs)).toBe(200);

    // Another member does not see the admin's keys: theirs are a 404, as before.
    await t.apiKey(['team:read'], admin);
    const [adminKey] = (await admin.inject({ method: 'GET', url: '/v1/api-keys' })).json().data.filter((k: { member_id: string }) => k.member_id === admin.memberId);
    expect((await editor.inject({ method: 'POST', url: `/v1/api-keys/${adminKey.id}/rotate` })).statusCode).toBe(404);

    // The owner rotates; the admin revokes.
    const own = await editor.inject({ method: 'POST', url: `/v1/api-keys/${id}/rotate` });
    expect(own.statusCode).toBe(201);
    expect((await admin.inject({ method: 'DELETE', url: `/v1/api-keys/${own.json().data.id}` })).statusCode).toBe(204);
    expect(await status(own.json().data.key)).toBe(401);
  });

  it('revoking a key during its rotation grace period ends it at once', async () => {
    const admin = await t.signUp();
    const oldKey = await t.apiKey(['team:read'], admin);
    const [listed] = (await admin.inject({ method: 'GET', url: '/v1/api-keys' })).json().data;
    const fresh = (await admin.inject({ method: 'POST', url: `/v1/api-keys/${listed.id}/rotate` })).json().data;
    expect(await status(oldKey)).toBe(200);
    expect((await admin.inject({ method: 'DELETE', url: `/v1/api-keys/${listed.id}` })).statusCode).toBe(204);
    expect(await status(oldKey)).toBe(401);
    expect(await status(fresh.key)).toBe(200);
  });

  it('a malformed key id is a 400 and another workspace’s key is a 404', async () => {
    const a = await t.signUp();
    const b = await t.signUp();
    await t.apiKey(['team:read'], b);
    const [theirs] = (await b.inject({ method: 'GET', url: '/v1/api-keys' })).json().data;
    expect((await a.inject({ method: 'DELETE', url: '/v1/api-keys/not-an-id' })).statusCode).toBe(400);
    const res = await a.inject({ method: 'DELETE', url: `/v1/api-keys/${theirs.id}` });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
    expect((await b.inject({ method: 'GET', url: '/v1/api-keys' })).json().meta.total).toBe(1);
  });

  it('stores no plaintext key anywhere, and the digest is an HMAC, not a bare SHA-256', async () => {
    const admin = await t.signUp();
    const keys = [await t.apiKey('all', admin), await t.apiKey(['team:read'], admin)];
    for (const key of keys) expect(await status(key)).toBe(200);
    const [listed] = (await admin.inject({ method: 'GET', url: '/v1/api-keys' })).json().data;
    const rotated = (await admin.inject({ method: 'POST', url: `/v1/api-keys/${listed.id}/rotate` })).json().data;
    keys.push(rotated.key);

    const { database } = t.ctx;
    const columns = await database.executeSql(
      `select table_schema, table_name, column_name from information_schema.columns
        where table_schema not in ('pg_catalog', 'information_schema')
          and data_type in ('text', 'character varying', 'character', 'jsonb', 'json', 'ARRAY', 'bytea')`,
      [],
    );
    expect(columns.rows.length).toBeGreaterThan(10);
    let dump = '';
    for (const c of columns.rows) {
      const rows = await database.executeSql(
        `select "${c.column_name}"::text as v from "${c.table_schema}"."${c.table_name}" where "${c.column_name}" is not null`,
        [],
      );
      dump += rows.rows.map((r) => String(r.v)).join('\n');
    }
    const digests = (await database.executeSql('select digest from api_keys', [])).rows.map((r) => String(r.digest));
    expect(digests.length).toBeGreaterThanOrEqual(3);
    expect(dump).toContain(digests[0]);
    for (const key of keys) {
      expect(dump).not.toContain(key);
      expect(dump).not.toContain(key.slice(4));
      // The secret part without prefix and checksum, too.
      expect(dump).not.toContain(key.slice(8, -6));
      const sha = createHash('sha256').update(key).digest();
      expect(digests).not.toContain(sha.toString('hex'));
      expect(dump).not.toContain(sha.toString('hex'));
      expect(dump).not.toContain(sha.toString('base64'));
      expect(dump).not.toContain(sha.toString('base64url'));
    }
  });
});
