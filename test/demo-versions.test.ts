import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assets, demoVersions } from '../src/demos/demos.tables';
import { events } from '../src/events/events.tables';
import { makePng } from './helpers/images';
import { createShare, demoWithSteps, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

describe('draft and published versions of a demo', () => {
  let t: TestApp;
  let admin: TestSession;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.signUp();
    key = await t.apiKey('all', admin);
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, payload?: object, k = key) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(k), ...(payload ? { payload } : {}) });
  const detail = async (demoId: string) => (await call('GET', `/v1/demos/${demoId}`)).json().data;
  const ev = (type: string, extra: object = {}) => ({ id: randomUUID(), type, ...extra });

  async function viewer(demoId: string, ip = '203.0.113.50') {
    const share = await createShare(t, key, demoId);
    const v = viewerClient(t, share.token, ip);
    expect((await v.call('GET', '')).statusCode).toBe(200);
    const payload = async () => {
      const res = await v.call('GET', '/demo');
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    return { share, v, payload };
  }

  it('keeps viewers on the published version until the changes are published', async () => {
    const demoId = await demoWithSteps(t, key, 3);
    const { payload, v } = await viewer(demoId);
    const before = await payload();
    expect(before).toMatchObject({ version: 1, title: 'Secret roadmap tour' });
    expect(before.steps.map((s: { title: string }) => s.title)).toEqual(['Step 1', 'Step 2', 'Step 3']);
    expect(await detail(demoId)).toMatchObject({ status: 'published', published_version: 1, has_unpublished_changes: false });

    // Edit the draft every way an editor can: title, a step's text, a hotspot, a deleted step, a new step.
    const { steps } = await detail(demoId);
    await call('PATCH', `/v1/demos/${demoId}`, { title: 'Half-done tour' });
    await call('PATCH', `/v1/demos/${demoId}/steps/${steps[0].id}`, { title: 'Draft step one' });
    const hotspot = (await detail(demoId)).hotspots.find((h: { step_id: string }) => h.step_id === steps[1].id);
    await call('PATCH', `/v1/demos/${demoId}/steps/${steps[1].id}/hotspots/${hotspot.id}`, { label: 'Draft label' });
    expect((await call('DELETE', `/v1/demos/${demoId}/steps/${steps[2].id}`)).statusCode).toBe(204);
    await t.app.inject({
      method: 'POST',
      url: `/v1/demos/${demoId}/steps`,
      headers: { ...bearer(key), 'content-type': 'image/png' },
      payload: makePng(8, 4, [200, 200, 0]),
    });

    const edited = await detail(demoId);
    expect(edited).toMatchObject({ status: 'published', published_version: 1, has_unpublished_changes: true, step_count: 3 });
    // The viewer still plays version 1, whole: the deleted step and its image included.
    const still = await payload();
    expect(still).toEqual(before);
    const deletedImage = still.steps[2].image_url.split(`/v1/viewer/`)[1].split('/').slice(1).join('/');
    expect((await v.call('GET', `/${deletedImage}`)).statusCode).toBe(200);

    const published = await call('POST', `/v1/demos/${demoId}/publish`);
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json().data).toMatchObject({ status: 'published', published_version: 2, has_unpublished_changes: false });
    const after = await payload();
    expect(after.version).toBe(2);
    expect(after.title).toBe('Half-done tour');
    expect(after.steps.map((s: { title: string }) => s.title)).toEqual(['Draft step one', 'Step 2', '']);
    expect(after.steps[1].hotspots[0].label).toBe('Draft label');

    // Publishing an unchanged draft again makes no version.
    expect((await call('POST', `/v1/demos/${demoId}/publish`)).json().data.published_version).toBe(2);
    const kinds = await t.ctx.database.db
      .select({ kind: events.kind, data: events.data })
      .from(events)
      .where(and(eq(events.workspaceId, admin.workspaceId), eq(events.kind, 'demo.published')));
    const ofDemo = kinds.filter((e) => (e.data as { demo_id: string }).demo_id === demoId);
    expect(ofDemo.map((e) => (e.data as { version: number }).version)).toEqual([1, 2]);
  });

  it('lists the publishes, newest first, with who and when; unpublishing keeps them', async () => {
    const demoId = await demoWithSteps(t, key, 2);
    await call('PATCH', `/v1/demos/${demoId}`, { title: 'Second title' });
    await call('POST', `/v1/demos/${demoId}/publish`);
    expect((await call('PATCH', `/v1/demos/${demoId}`, { status: 'draft' })).json().data).toMatchObject({
      status: 'draft',
      published_version: null,
      has_unpublished_changes: false,
    });
    const res = await call('GET', `/v1/demos/${demoId}/versions`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().meta).toMatchObject({ total: 2, page: 1 });
    const [second, first] = res.json().data;
    expect(second).toMatchObject({
      id: expect.stringMatching(/^dver_/),
      number: 2,
      title: 'Second title',
      step_count: 2,
      published_at: expect.stringMatching(/Z$/),
      published_by: { user_id: admin.userId, email: admin.email },
    });
    expect(first).toMatchObject({ number: 1, title: 'Secret roadmap tour' });
    // Republishing makes version 3, and the list stays in the demo list too.
    expect((await call('POST', `/v1/demos/${demoId}/publish`)).json().data.published_version).toBe(3);
    const listed = (await call('GET', '/v1/demos?per_page=100')).json().data.find((d: { id: string }) => d.id === demoId);
    expect(listed.published_version).toBe(3);
  });

  it('restores a version into the draft without publishing it', async () => {
    const demoId = await demoWithSteps(t, key, 3);
    const { payload } = await viewer(demoId, '203.0.113.51');
    const v1 = await detail(demoId);
    // Version 2: the last step deleted, another renamed.
    await call('DELETE', `/v1/demos/${demoId}/steps/${v1.steps[2].id}`);
    await call('PATCH', `/v1/demos/${demoId}/steps/${v1.steps[0].id}`, { title: 'Renamed in v2' });
    await call('POST', `/v1/demos/${demoId}/publish`);
    // A later draft edit, then restore version 1.
    await call('PATCH', `/v1/demos/${demoId}`, { title: 'Draft after v2' });
    const restored = await call('POST', `/v1/demos/${demoId}/versions/1/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    const data = restored.json().data;
    expect(data).toMatchObject({ title: 'Secret roadmap tour', step_count: 3, published_version: 2, has_unpublished_changes: true });
    // The same steps and hotspots, ids included, and the deleted step's image is back. `edited_at` is the
    // draft's: kept for the steps still there, the restore's time for the one brought back.
    const withoutMark = (steps: { edited_at: string | null }[]) => steps.map(({ edited_at: _, ...rest }) => rest);
    expect(withoutMark(data.steps)).toEqual(withoutMark(v1.steps));
    expect(data.steps[1].edited_at).toBe(v1.steps[1].edited_at);
    expect(Date.parse(data.steps[2].edited_at)).toBeGreaterThan(Date.parse(v1.steps[2].edited_at));
    expect(data.hotspots).toEqual(v1.hotspots);
    const image = await call('GET', new URL(data.steps[2].image_url).pathname);
    expect(image.statusCode).toBe(200);
    // Not published: viewers still play version 2 until the restore is published.
    expect((await payload()).steps).toHaveLength(2);
    await call('POST', `/v1/demos/${demoId}/publish`);
    const now = await payload();
    expect(now.version).toBe(3);
    expect(now.steps.map((s: { title: string }) => s.title)).toEqual(['Step 1', 'Step 2', 'Step 3']);

    expect((await call('POST', `/v1/demos/${demoId}/versions/9/restore`)).statusCode).toBe(404);
    expect((await call('POST', `/v1/demos/${demoId}/versions/0/restore`)).statusCode).toBe(400);
    expect((await call('POST', `/v1/demos/${demoId}/versions/abc/restore`)).statusCode).toBe(400);
    expect((await call('POST', `/v1/demos/${demoId}/versions/99999999999/restore`)).statusCode).toBe(400);
  });

  it('says what changed since a version: against the draft and against the live version', async () => {
    const demoId = await demoWithSteps(t, key, 3);
    const { steps, hotspots } = await detail(demoId);
    // Draft: step 3 first, step 2 retitled with a moved hotspot, step 1 deleted, a step added, a new title.
    await call('PATCH', `/v1/demos/${demoId}`, { title: 'Renamed tour' });
    await call('PUT', `/v1/demos/${demoId}/steps`, { steps: [steps[2].id, steps[1].id, { title: 'Brand new' }] });
    await call('PATCH', `/v1/demos/${demoId}/steps/${steps[1].id}`, { title: 'Second, better' });
    const h = hotspots.find((x: { step_id: string }) => x.step_id === steps[1].id);
    await call('PATCH', `/v1/demos/${demoId}/steps/${steps[1].id}/hotspots/${h.id}`, { x: 0.5 });

    const res = await call('GET', `/v1/demos/${demoId}/versions/1/changes`);
    expect(res.statusCode, res.body).toBe(200);
    const diff = res.json().data;
    expect(diff).toMatchObject({ version: 1, against: 'draft', title: { from: 'Secret roadmap tour', to: 'Renamed tour' }, configuration_changed: false });
    const rows = diff.steps.map((s: { change: string; number_from: number | null; number_to: number | null; parts: string[] }) => [
      s.change,
      s.number_from,
      s.number_to,
      s.parts,
    ]);
    expect(rows).toEqual([
      ['removed', 1, null, []],
      ['changed', 3, 1, ['position']],
      ['changed', 2, 2, ['title', 'hotspots', 'position']],
      ['added', null, 3, []],
    ]);
    expect(diff.steps[2]).toMatchObject({ title_from: 'Step 2', title_to: 'Second, better', hotspots: { added: 0, removed: 0, changed: 1 } });

    // The live version is version 1 itself until the changes are published; then version 2.
    const live = (await call('GET', `/v1/demos/${demoId}/versions/1/changes?against=live`)).json().data;
    expect(live).toMatchObject({ against: 1, title: null });
    expect(live.steps.every((s: { change: string }) => s.change === 'unchanged')).toBe(true);
    await call('POST', `/v1/demos/${demoId}/publish`);
    expect((await call('GET', `/v1/demos/${demoId}/versions/1/changes?against=live`)).json().data.against).toBe(2);

    expect((await call('GET', `/v1/demos/${demoId}/versions/9/changes`)).statusCode).toBe(404);
    expect((await call('GET', `/v1/demos/${demoId}/versions/1/changes?against=yesterday`)).statusCode).toBe(400);
    await call('PATCH', `/v1/demos/${demoId}`, { status: 'draft' });
    const unpublished = await call('GET', `/v1/demos/${demoId}/versions/1/changes?against=live`);
    expect(unpublished.statusCode).toBe(409);
    expect(unpublished.json().error.message).toMatch(/not published/);
  });

  it('keeps a view’s step numbers and the per-step analytics with the version it played', async () => {
    const demoId = await demoWithSteps(t, key, 3);
    const { v, payload } = await viewer(demoId, '203.0.113.52');
    expect((await payload()).version).toBe(1);
    const sent = await v.call('POST', '/events', {
      events: [ev('view_started'), ev('step_reached', { step_number: 3, seconds_on_previous: 2 })],
    });
    expect(sent.statusCode, sent.body).toBe(202);

    // Step 3 of version 1 is deleted and the first two swap places; version 2 is published.
    const { steps } = await detail(demoId);
    await call('PUT', `/v1/demos/${demoId}/steps`, { steps: [steps[1].id, steps[0].id] });
    await call('POST', `/v1/demos/${demoId}/publish`);
    const second = await viewer(demoId, '203.0.113.53');
    expect((await second.payload()).version).toBe(2);
    await second.v.call('POST', '/events', { events: [ev('view_started'), ev('completed', { seconds_on_previous: 1 })] });

    const views = (await call('GET', `/v1/demos/${demoId}/views`)).json().data;
    const old = views.find((x: { version: number }) => x.version === 1);
    expect(old).toMatchObject({ version: 1, steps_viewed: [1, 3] });
    expect(views.find((x: { version: number }) => x.version === 2)).toMatchObject({ steps_viewed: [1, 2], completed: true });
    const onlyV1 = (await call('GET', `/v1/demos/${demoId}/views?version=1`)).json();
    expect(onlyV1.meta.total).toBe(1);

    const a1 = (await call('GET', `/v1/demos/${demoId}/analytics?version=1`)).json().data;
    expect(a1).toMatchObject({ total_views: 1, completion_rate: 0 });
    expect(a1.steps.map((s: { number: number; views: number }) => [s.number, s.views])).toEqual([
      [1, 1],
      [2, 0],
      [3, 1],
    ]);
    const a2 = (await call('GET', `/v1/demos/${demoId}/analytics?version=2`)).json().data;
    expect(a2).toMatchObject({ total_views: 1, completion_rate: 1 });
    expect(a2.steps.map((s: { number: number; views: number }) => [s.number, s.views])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    // Without a version: every view, on the steps of the version served now.
    const all = (await call('GET', `/v1/demos/${demoId}/analytics`)).json().data;
    expect(all).toMatchObject({ total_views: 2, completion_rate: 0.5 });
    expect(all.steps).toHaveLength(2);
    expect((await call('GET', `/v1/demos/${demoId}/analytics?version=7`)).statusCode).toBe(404);
  });

  it('refuses what cannot be published, and reads and writes by permission', async () => {
    const draft = await demoWithSteps(t, key, 0, false);
    expect((await call('POST', `/v1/demos/${draft}/publish`)).statusCode).toBe(409);
    const demoId = await demoWithSteps(t, key, 1, false);
    expect((await call('GET', `/v1/demos/${demoId}/versions`)).json().meta.total).toBe(0);
    // From draft, publish is the first publish.
    expect((await call('POST', `/v1/demos/${demoId}/publish`)).json().data).toMatchObject({ status: 'published', published_version: 1 });
    await call('PATCH', `/v1/demos/${demoId}`, { status: 'archived' });
    expect((await call('POST', `/v1/demos/${demoId}/publish`)).statusCode).toBe(409);

    const readOnly = await t.apiKey(['demos:read'], admin);
    expect((await call('GET', `/v1/demos/${demoId}/versions`, undefined, readOnly)).statusCode).toBe(200);
    expect((await call('POST', `/v1/demos/${demoId}/publish`, undefined, readOnly)).statusCode).toBe(403);
    expect((await call('POST', `/v1/demos/${demoId}/versions/1/restore`, undefined, readOnly)).statusCode).toBe(403);
    const other = await t.apiKey('all');
    expect((await call('GET', `/v1/demos/${demoId}/versions`, undefined, other)).statusCode).toBe(404);
    expect((await call('POST', `/v1/demos/${demoId}/versions/1/restore`, undefined, other)).statusCode).toBe(404);
  });

  it('backfills version 1 of demos published before versions, in the shape the app writes', async () => {
    const demoId = await demoWithSteps(t, key, 2);
    const { db } = t.ctx.database;
    const [written] = await db.select().from(demoVersions).where(eq(demoVersions.demoId, demoId));
    // As before the migration: a published demo without versions; then the migration's own statement.
    await db.delete(demoVersions).where(eq(demoVersions.demoId, demoId));
    const migration = readFileSync(new URL('../drizzle/0010_demo_versions.sql', import.meta.url), 'utf8');
    const backfill = migration.split('--> statement-breakpoint').find((s) => s.includes('INSERT INTO "demo_versions"'))!;
    await db.execute(sql.raw(backfill.replace(`WHERE d."status" = 'published'`, `WHERE d."id" = '${demoId}'`)));
    const [made] = await db.select().from(demoVersions).where(eq(demoVersions.demoId, demoId));
    expect(made).toMatchObject({ number: 1, stepCount: 2, assetIds: written!.assetIds, publishedById: null });
    expect(made!.id).toMatch(/^dver_[0-9a-f]{26}$/);
    // Same content as the app's own snapshot: the draft shows no unpublished changes, and it plays.
    expect(await detail(demoId)).toMatchObject({ published_version: 1, has_unpublished_changes: false });
    const { payload } = await viewer(demoId, '203.0.113.54');
    expect((await payload()).steps).toHaveLength(2);
    const versions = (await call('GET', `/v1/demos/${demoId}/versions`)).json().data;
    expect(versions[0]).toMatchObject({ number: 1, published_by: null });
  });

  it('keeps the assets a version names when the draft drops them, and deletes the others', async () => {
    const demoId = await demoWithSteps(t, key, 2);
    const { steps } = await detail(demoId);
    const { db } = t.ctx.database;
    const assetOf = (url: string) => url.split('/assets/')[1]!;
    const kept = assetOf(steps[1].image_url);
    // A step added after the publish and deleted again took its image with it: no version names it.
    const added = await t.app.inject({
      method: 'POST',
      url: `/v1/demos/${demoId}/steps`,
      headers: { ...bearer(key), 'content-type': 'image/png' },
      payload: makePng(8, 4, [1, 2, 3]),
    });
    const gone = assetOf(added.json().data.image_url);
    await call('DELETE', `/v1/demos/${demoId}/steps/${added.json().data.id}`);
    await call('DELETE', `/v1/demos/${demoId}/steps/${steps[1].id}`);
    const left = await db.select({ id: assets.id }).from(assets).where(eq(assets.demoId, demoId));
    expect(left.map((a) => a.id)).toContain(kept);
    expect(left.map((a) => a.id)).not.toContain(gone);
  });
});
