import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_RETENTION } from '../src/audit/audit.jobs';
import { manualClock } from '../src/core/clock';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

const DAY = 86_400_000;

describe('audit log API: filters, pages, CSV, access, append-only, retention', () => {
  const clock = manualClock('2026-03-01T09:00:00.000Z');
  let t: TestApp;
  let admin: TestSession;
  let editor: TestSession;
  let viewer: TestSession;
  const keyIds: string[] = [];

  const get = (url: string, session = admin) => session.inject({ method: 'GET', url });
  const sql = (text: string, values: unknown[] = []) => t.db.database.executeSql(text, values);

  beforeAll(async () => {
    t = await createTestApp({ clock, config: { AUDIT_LOG_RETENTION: 30 * DAY } });
    admin = await t.signUp();
    editor = await t.member(admin, 'editor');
    viewer = await t.member(admin, 'viewer');
    // Five keys on five days, two of them by the editor; names chosen to upset a spreadsheet.
    const names = ['=HYPERLINK("http://evil.example","x")', '+1', 'plain, with "quotes"', '@SUM(A1)', '-2'];
    for (const [i, name] of names.entries()) {
      const who = i % 2 === 1 ? editor : admin;
      const res = await who.inject({ method: 'POST', url: '/v1/api-keys', payload: { name, scopes: ['demos:read'] } });
      expect(res.statusCode).toBe(201);
      keyIds.push(res.json().data.id);
      clock.advance(DAY);
    }
  });
  afterAll(() => t?.close());

  it('lists newest first in pages, with the list envelope', async () => {
    const all = await get('/v1/audit-log?action=key.created');
    expect(all.json().meta).toMatchObject({ total: 5, page: 1, per_page: 20 });
    expect(all.json().data.map((e: { target: { id: string } }) => e.target.id)).toEqual([...keyIds].reverse());
    const second = await get('/v1/audit-log?action=key.created&per_page=2&page=2');
    expect(second.json().meta).toMatchObject({ total: 5, page: 2, per_page: 2 });
    expect(second.json().data.map((e: { target: { id: string } }) => e.target.id)).toEqual([keyIds[2], keyIds[1]]);
    const past = await get('/v1/audit-log?action=key.created&per_page=2&page=9');
    expect(past.json()).toMatchObject({ data: [], meta: { total: 5, page: 9 } });
  });

  it('filters by actor, action, target and date range', async () => {
    // The editor joined through the invitation (which signed them in), then made two keys.
    const byEditor = (await get(`/v1/audit-log?actor=${editor.userId}`)).json();
    expect(byEditor.meta.total).toBe(4);
    expect(byEditor.data.every((e: { actor: { id: string } }) => e.actor.id === editor.userId)).toBe(true);
    expect(byEditor.data.map((e: { action: string }) => e.action).sort()).toEqual(['key.created', 'key.created', 'member.joined', 'user.signed_in']);
    expect((await get(`/v1/audit-log?actor=${editor.userId}&action=key.created`)).json().meta.total).toBe(2);
    const invites = (await get('/v1/audit-log?action=member.invited')).json();
    expect(invites.meta.total).toBe(2);
    const one = (await get(`/v1/audit-log?target=${keyIds[3]}`)).json();
    expect(one.data).toHaveLength(1);
    expect(one.data[0].target.label).toBe('@SUM(A1)');
    // Keys were made on 1, 2, 3, 4 and 5 March; the range is inclusive whole UTC days.
    const range = (await get('/v1/audit-log?action=key.created&start_date=2026-03-02&end_date=2026-03-03')).json();
    expect(range.data.map((e: { target: { id: string } }) => e.target.id)).toEqual([keyIds[2], keyIds[1]]);
    const since = (await get('/v1/audit-log?action=key.created&start_date=2026-03-04T00:00:00.000Z')).json();
    expect(since.meta.total).toBe(2);
  });

  it('answers bad filters with a documented 400', async () => {
    for (const query of [
      'action=key.stolen',
      'actor=robert%27);drop',
      'start_date=yesterday',
      'start_date=2026-03-05&end_date=2026-03-01',
      'per_page=101',
      'page=0',
      'colour=blue',
      'target=%00',
    ]) {
      const res = await get(`/v1/audit-log?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('invalid_request');
    }
    expect((await get('/v1/audit-log.csv?action=nope')).statusCode).toBe(400);
  });

  it('is for admins: in the web app, or with a key carrying audit:read', async () => {
    for (const session of [editor, viewer]) {
      for (const url of ['/v1/audit-log', '/v1/audit-log.csv']) {
        const res = await get(url, session);
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('forbidden');
      }
    }
    const byKey = (key: string, url = '/v1/audit-log') => t.app.inject({ method: 'GET', url, headers: bearer(key) });
    for (const key of [await t.apiKey('all', admin), await t.apiKey(['audit:read'], admin)]) {
      for (const url of ['/v1/audit-log?action=key.created', '/v1/audit-log.csv?action=key.created']) {
        const res = await byKey(key, url);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.body).toContain(keyIds[0]);
      }
    }
    // The contract's eight scopes, all of them, read no log.
    const eight = await t.apiKey(['demos:read', 'demos:write', 'analytics:read', 'shares:read', 'shares:write', 'team:read', 'team:write', 'webhooks:write'], admin);
    expect((await byKey(eight)).json().error).toMatchObject({ code: 'insufficient_scope', message: expect.stringContaining('audit:read') });
    // Scopes ∩ role: an editor's or viewer's key with audit:read still reads nothing.
    for (const session of [editor, viewer]) {
      const res = await byKey(await t.apiKey(['audit:read'], session));
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
    }
    expect((await t.app.inject({ method: 'GET', url: '/v1/audit-log' })).statusCode).toBe(401);
  });

  it('exports CSV with quoting and formula neutralising, under the same filters', async () => {
    // The five keys of beforeAll, made by 5 March (a later test made one more).
    const res = await get('/v1/audit-log.csv?action=key.created&end_date=2026-03-05');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe(
      'created_at,action,actor_type,actor_id,actor_label,target_type,target_id,target_label,changes,ip,user_agent,id',
    );
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(1 + 5 + 1);
    const byKey = (id: string) => lines.find((line) => line.includes(id))!;
    expect(byKey(keyIds[0]!)).toContain(`,api_key,${keyIds[0]},"'=HYPERLINK(""http://evil.example"",""x"")",`);
    expect(byKey(keyIds[1]!)).toContain(`,api_key,${keyIds[1]},'+1,`);
    expect(byKey(keyIds[2]!)).toContain(`,"plain, with ""quotes""",`);
    expect(byKey(keyIds[3]!)).toContain(`,'@SUM(A1),`);
    expect(byKey(keyIds[4]!)).toContain(`,'-2,`);
    // changes is one quoted cell of JSON.
    expect(byKey(keyIds[0]!)).toMatch(/,"\{""scopes"":\[""demos:read""\],[^\n]*""expires_at"":null\}",127\.0\.0\.1,/);
    // Newest first, like the list.
    expect(lines[1]).toContain(keyIds[4]);

    const filtered = await get(`/v1/audit-log.csv?actor=${editor.userId}&action=key.created&end_date=2026-03-05`);
    expect(filtered.body.trim().split('\r\n')).toHaveLength(3);
    const empty = await get('/v1/audit-log.csv?action=webhook.deleted');
    expect(empty.body).toBe(
      'created_at,action,actor_type,actor_id,actor_label,target_type,target_id,target_label,changes,ip,user_agent,id\r\n',
    );
  });

  it('exports more than one batch in order', async () => {
    const { rows } = await sql('select workspace_id from audit_log limit 1');
    const workspaceId = rows[0]!.workspace_id;
    await sql(
      `insert into audit_log (id, workspace_id, actor_type, actor_label, action, target_type, created_at)
       select 'aud_bulk' || lpad(n::text, 6, '0'), $1, 'system', 'system', 'data.erased', 'viewer',
              timestamptz '2026-02-01T00:00:00Z' + n * interval '1 second'
       from generate_series(1, 1203) n`,
      [workspaceId],
    );
    const res = await get('/v1/audit-log.csv?action=data.erased');
    const lines = res.body.trim().split('\r\n').slice(1);
    expect(lines).toHaveLength(1203);
    expect(lines[0]).toContain('aud_bulk001203');
    expect(lines.at(-1)).toContain('aud_bulk000001');
    expect(new Set(lines).size).toBe(1203);
  });

  it('refuses UPDATE, DELETE and TRUNCATE from anyone but the retention path', async () => {
    await expect(sql(`update audit_log set action = 'key.revoked' where target_id = $1`, [keyIds[0]])).rejects.toThrow(
      /append-only/,
    );
    await expect(sql('delete from audit_log where target_id = $1', [keyIds[0]])).rejects.toThrow(/append-only/);
    await expect(sql('truncate audit_log')).rejects.toThrow(/append-only/);
    // The setting is transaction-local: setting it outside a transaction block grants nothing afterwards.
    await sql(`select set_config('demoshare.audit_retention', 'on', true)`);
    await expect(sql('delete from audit_log where target_id = $1', [keyIds[0]])).rejects.toThrow(/append-only/);
    expect((await get(`/v1/audit-log?target=${keyIds[0]}`)).json().meta.total).toBe(1);
  });

  it('the retention job deletes only entries older than AUDIT_LOG_RETENTION', async () => {
    const before = Number((await sql('select count(*) as n from audit_log')).rows[0]!.n);
    // The bulk rows are from 1 February, the keys from 1 to 5 March; 30 days before 3 April is 4 March.
    clock.set('2026-04-03T09:00:00.000Z');
    const deleted = await t.ctx.services.audit.audit.applyRetention();
    const left = await sql('select target_id, created_at from audit_log order by created_at');
    expect(deleted).toBe(before - left.rows.length);
    expect(left.rows.every((r) => new Date(String(r.created_at)) >= new Date('2026-03-04T09:00:00.000Z'))).toBe(true);
    expect(left.rows.map((r) => r.target_id).filter((id) => keyIds.includes(String(id)))).toEqual([keyIds[3], keyIds[4]]);
    // And the permission did not outlive the job's transaction.
    await expect(sql('delete from audit_log')).rejects.toThrow(/append-only/);
  });
});

describe('audit log retention job', () => {
  it('runs from the queue and deletes through the trigger’s allowed path', async () => {
    const clock = manualClock('2025-01-01T00:00:00.000Z');
    const t = await createTestApp({ clock, jobs: true, config: { AUDIT_LOG_RETENTION: 5 * DAY } });
    try {
      const admin = await t.signUp();
      const old = await admin.inject({ method: 'POST', url: '/v1/api-keys', payload: { name: 'old', scopes: ['demos:read'] } });
      // Past the retention, within the session's lifetime.
      clock.advance(6 * DAY);
      const recent = await admin.inject({ method: 'POST', url: '/v1/api-keys', payload: { name: 'recent', scopes: ['demos:read'] } });
      await t.ctx.queue.send(AUDIT_RETENTION, {});
      const targets = async () =>
        (await t.db.database.executeSql(`select target_id from audit_log where action = 'key.created'`)).rows.map((r) => r.target_id);
      const deadline = Date.now() + 20_000;
      while ((await targets()).length > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
      expect(await targets()).toEqual([recent.json().data.id]);
      expect(old.json().data.id).not.toBe(recent.json().data.id);
    } finally {
      await t.close();
    }
  });
});
