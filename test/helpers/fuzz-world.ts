import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { SCOPES, type Scope } from '../../src/auth/permissions';
import { newId } from '../../src/core/ids';
import { eq } from 'drizzle-orm';
import { assets } from '../../src/demos/demos.tables';
import { demoRenders } from '../../src/renders/renders.tables';
import { makePng } from './images';
import { createShare, demoWithSteps, playView } from './shares';
import { bearer, sessionFrom, type TestApp, type TestSession, uniqueEmail } from './test-app';

/**
 * The records the fuzzer (test/fuzz.test.ts) addresses by id: one small workspace with one of everything
 * an operation's path names (a published demo with steps, hotspots, an image asset and a version, a share
 * link with a view, a webhook with a delivery, a spare API key, an invited member, an OAuth app with an
 * authorisation, a second web session, a recording), and a second workspace with the same, whose ids
 * must answer as if they did not exist.
 */
export interface WorkspaceWorld {
  session: TestSession;
  /** An all-scopes key of the workspace's admin. */
  key: string;
  /** Path parameter values by name: `demo`, `step`, `hotspot`, ... (see `pathValue`). */
  ids: Record<string, string>;
}

export interface World {
  home: WorkspaceWorld;
  other: WorkspaceWorld;
  /** A key of the home admin, revoked. */
  revokedKey: string;
  /** Keys of the home admin with one scope each (for "a valid key with too few scopes"). */
  narrowKeys: Partial<Record<Scope, string>>;
}

const REDIRECT = 'https://client.example.com/callback';

async function expectStatus(res: LightMyRequestResponse, status: number, what: string) {
  if (res.statusCode !== status) throw new Error(`fuzz world: ${what} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  return res.body ? res.json() : undefined;
}

async function workspace(t: TestApp): Promise<WorkspaceWorld> {
  const password = 'correct horse battery staple';
  const session = await t.signUp(uniqueEmail('fuzz'), password);
  const key = await t.apiKey('all', session);
  const call = (options: InjectOptions) => t.app.inject({ ...options, headers: { ...bearer(key), ...options.headers } });

  const demo = await demoWithSteps(t, key, 2, true);
  const detail = (await expectStatus(await call({ method: 'GET', url: `/v1/demos/${demo}` }), 200, 'demo')).data;
  const step = detail.steps[0];
  const hotspot = detail.hotspots.find((h: { step_number: number }) => h.step_number === step.number);
  const asset = /\/assets\/(ast_[0-9a-z]+)/.exec(step.image_url)?.[1];
  if (!hotspot || !asset) throw new Error(`fuzz world: no hotspot or asset in ${JSON.stringify(detail).slice(0, 500)}`);

  // A chapter holding the last step: the story stays linear, so publishing it is not refused.
  const chapter = (await expectStatus(await call({ method: 'POST', url: `/v1/demos/${demo}/chapters`, payload: { title: 'Part two' } }), 201, 'chapter')).data;
  await expectStatus(
    await call({ method: 'PATCH', url: `/v1/demos/${demo}/steps/${detail.steps.at(-1).id}`, payload: { chapter_id: chapter.id } }),
    200,
    'step into chapter',
  );

  // The demo's key (demo files' push), one per workspace, so that the other workspace's names nothing here.
  const demoKey = `fuzz-${session.workspaceId.slice(-10)}`;
  await expectStatus(await call({ method: 'PUT', url: `/v1/demos/${demo}/key`, payload: { key: demoKey } }), 200, 'demo key');
  // A language of the demo (`{lang}` of the translation routes): its own export, imported back as French.
  const xliff = (await call({ method: 'GET', url: `/v1/demos/${demo}/translations/export?lang=fr` })).body;
  const translated = xliff.replace(/<source>(.*?)<\/source>/g, '$&<target>$1</target>');
  await expectStatus(
    await call({ method: 'POST', url: `/v1/demos/${demo}/translations/import`, headers: { 'content-type': 'application/xliff+xml' }, payload: translated }),
    200,
    'translation',
  );

  const share = await createShare(t, key, demo);
  await playView(t, share.token, { email: uniqueEmail('viewer'), reached: 2, complete: true });
  const views = await expectStatus(await call({ method: 'GET', url: `/v1/demos/${demo}/views` }), 200, 'views');
  // An A/B test on the link, stopped without keeping an arm: the link serves its own demo as before (docs/ab-tests.md).
  const variant = await demoWithSteps(t, key, 2, true);
  const arms = [{ demo_id: demo, weight: 1 }, { demo_id: variant, weight: 1 }];
  const experiment = (await expectStatus(await call({ method: 'POST', url: `/v1/shares/${share.id}/experiment`, payload: { arms } }), 201, 'experiment')).data;
  await expectStatus(await call({ method: 'POST', url: `/v1/shares/${share.id}/experiment/stop`, payload: { winner_arm_id: null } }), 200, 'experiment stop');

  // A demo hub with a collection and the demo on it (docs/hubs.md).
  const hub = (await expectStatus(await call({ method: 'POST', url: '/v1/hubs', payload: { name: 'Fuzz hub' } }), 201, 'hub')).data;
  const hubCollection = (await expectStatus(await call({ method: 'POST', url: `/v1/hubs/${hub.id}/collections`, payload: { name: 'Tours' } }), 201, 'hub collection')).data;
  const hubEntry = (
    await expectStatus(await call({ method: 'POST', url: `/v1/hubs/${hub.id}/entries`, payload: { demo_id: demo, collection_id: hubCollection.id } }), 201, 'hub entry')
  ).data;
  const hubToken = String(hub.url).split('/h/')[1] ?? '';

  const webhook = (
    await expectStatus(await call({ method: 'POST', url: '/v1/webhooks', payload: { url: 'https://93.184.215.14/hook', events: ['demo.viewed'] } }), 201, 'webhook')
  ).data;
  const delivery = (await expectStatus(await call({ method: 'POST', url: `/v1/webhooks/${webhook.id}/test` }), 201, 'webhook test')).data;

  const domain = (
    await expectStatus(await session.inject({ method: 'POST', url: '/v1/domains', payload: { hostname: `${uniqueEmail('d').split('@')[0]?.replace(/[^a-z0-9]/g, '')}.example.com` } }), 201, 'domain')
  ).data;

  const spareKey = (await expectStatus(await session.inject({ method: 'POST', url: '/v1/api-keys', payload: { name: 'spare', scopes: ['demos:read'] } }), 201, 'spare key')).data;
  const invited = (await expectStatus(await call({ method: 'POST', url: '/v1/team/members', payload: { email: uniqueEmail('invited'), role: 'editor' } }), 201, 'invitation')).data;
  const invitationToken = String(invited.invitation?.url ?? '').split('/invite/')[1];
  if (!invitationToken) throw new Error(`fuzz world: no invitation link in ${JSON.stringify(invited)}`);

  const app = (
    await expectStatus(await call({ method: 'POST', url: '/v1/oauth/apps', payload: { name: 'Fuzz client', redirect_uris: [REDIRECT], scopes: [...SCOPES] } }), 201, 'OAuth app')
  ).data;
  const consent = await expectStatus(
    await session.inject({
      method: 'POST',
      url: '/v1/oauth/authorize',
      payload: { client_id: app.client_id, redirect_uri: REDIRECT, response_type: 'code', scope: 'demos:read', state: 's', decision: 'allow' },
    }),
    200,
    'consent',
  );
  const code = new URL(consent.data.redirect_to).searchParams.get('code') ?? '';
  await expectStatus(
    await t.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: app.client_id, client_secret: app.client_secret, redirect_uri: REDIRECT }).toString(),
    }),
    200,
    'token exchange',
  );
  const grant = (await expectStatus(await session.inject({ method: 'GET', url: '/v1/oauth/authorizations' }), 200, 'authorizations')).data[0];

  // A second sign-in of the same person: the session a valid DELETE /v1/account/sessions/{id} ends.
  const second = sessionFrom(t.app, session.email, await t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: session.email, password } }));
  const sessions = (await expectStatus(await session.inject({ method: 'GET', url: '/v1/account/sessions' }), 200, 'sessions')).data;
  const spareSession = sessions.find((s: { current: boolean }) => !s.current);
  if (!spareSession || !second) throw new Error('fuzz world: no second session');

  const logo = await session.inject({ method: 'PUT', url: '/v1/workspace/logo', headers: { 'content-type': 'image/png' }, payload: makePng(16, 16, [200, 40, 40]) });
  const logoUrl = String((await expectStatus(logo, 200, 'logo')).data.branding.logo_url);
  const logoVersion = /\/workspace-logos\/[^/]+\/([^/?]+)/.exec(logoUrl)?.[1];
  if (!logoVersion) throw new Error(`fuzz world: no logo version in ${logoUrl}`);

  const recording = (await expectStatus(await call({ method: 'POST', url: '/v1/recordings', payload: { step_count: 2 } }), 201, 'recording')).data;
  // The CDN origin's address of the step's picture (GET /v1/public-assets/sha256/{digest}).
  const [pictured] = await t.ctx.database.db.select({ sha256: assets.sha256 }).from(assets).where(eq(assets.id, asset));
  if (!pictured) throw new Error(`fuzz world: no asset row ${asset}`);

  // A stale-demo check and a render of the published demo (queued: this app runs no jobs).
  const check = (await expectStatus(await call({ method: 'POST', url: `/v1/demos/${demo}/checks` }), 202, 'check')).data;
  const render = await call({ method: 'POST', url: `/v1/demos/${demo}/renders`, payload: { format: 'gif', width: 480, height: 300 } });
  let renderId: string;
  if (render.statusCode === 202) renderId = render.json().data.id;
  else {
    // Without ffmpeg here the API refuses renders (503 ffmpeg_missing): the record goes in as a worker would find it.
    await expectStatus(render, 503, 'render');
    renderId = newId('render');
    await t.ctx.database.db.insert(demoRenders).values({
      id: renderId,
      workspaceId: session.workspaceId,
      demoId: demo,
      version: 1,
      format: 'gif',
      width: 480,
      height: 300,
      paceMs: 1000,
      fps: 10,
      stepCount: 2,
    });
  }

  return {
    session,
    key,
    ids: {
      demo,
      step: step.id,
      hotspot: hotspot.id,
      chapter: chapter.id,
      asset,
      version: '1',
      share: share.id,
      shareToken: share.token,
      view: views.data[0].id,
      webhook: webhook.id,
      delivery: delivery.id,
      domain: domain.id,
      apiKey: spareKey.id,
      member: invited.id,
      invitationToken,
      oauthApp: app.id,
      grant: grant.id,
      session: spareSession.id,
      recording: recording.id,
      recordingStep: '1',
      demoKey,
      check: check.id,
      render: renderId,
      workspace: session.workspaceId,
      logoVersion,
      assetDigest: pictured.sha256,
      lang: 'fr',
      hub: hub.id,
      hubCollection: hubCollection.id,
      hubEntry: hubEntry.id,
      hubToken,
      experiment: experiment.id,
      // No Slack URL in the world (saving one needs a receiver that takes a test message): the log's routes answer 404 for it.
      slackMessage: newId('slackMessage'),
    },
  };
}

export async function buildWorld(t: TestApp): Promise<World> {
  const home = await workspace(t);
  const other = await workspace(t);
  const revokedKey = await t.apiKey(['demos:read'], home.session);
  const keys = (await home.session.inject({ method: 'GET', url: '/v1/api-keys?per_page=100' })).json().data as Array<{ id: string; name: string; created_at: string }>;
  const newest = keys.sort((a, b) => b.created_at.localeCompare(a.created_at))[0]!;
  await expectStatus(await home.session.inject({ method: 'DELETE', url: `/v1/api-keys/${newest.id}` }), 204, 'revocation');
  const narrowKeys: World['narrowKeys'] = {};
  for (const scope of ['demos:read', 'team:read'] as const) narrowKeys[scope] = await t.apiKey([scope], home.session);
  return { home, other, revokedKey, narrowKeys };
}

/**
 * Which record a path parameter names: by the parameter's name, or for `id` and `token` by the path
 * (an unknown one throws, so that a new kind of path is given a record here rather than fuzzed blind).
 */
export function worldKey(path: string, param: string): string {
  const byName: Record<string, string> = {
    step_id: 'step',
    hotspot_id: 'hotspot',
    chapter_id: 'chapter',
    asset_id: 'asset',
    delivery_id: 'delivery',
    view_id: 'view',
    workspace_id: 'workspace',
    number: 'recordingStep',
    key: 'demoKey',
    lang: 'lang',
    check_id: 'check',
    render_id: 'render',
    collection_id: 'hubCollection',
    entry_id: 'hubEntry',
    message_id: 'slackMessage',
    experiment_id: 'experiment',
    digest: 'assetDigest',
  };
  if (byName[param]) return byName[param];
  if (param === 'version') return path.startsWith('/v1/workspace-logos') ? 'logoVersion' : 'version';
  if (param === 'token') {
    if (path.startsWith('/v1/viewer/')) return 'shareToken';
    if (path.startsWith('/v1/invitations/')) return 'invitationToken';
    if (path.startsWith('/v1/hub-viewer/')) return 'hubToken';
  }
  if (param === 'id') {
    const byPrefix: Array<[string, string]> = [
      ['/v1/demos/', 'demo'],
      ['/v1/api-keys/', 'apiKey'],
      ['/v1/team/members/', 'member'],
      ['/v1/oauth/apps/', 'oauthApp'],
      ['/v1/oauth/authorizations/', 'grant'],
      ['/v1/webhooks/', 'webhook'],
      ['/v1/domains/', 'domain'],
      ['/v1/shares/', 'share'],
      ['/v1/account/sessions/', 'session'],
      ['/v1/recordings/', 'recording'],
      ['/v1/hubs/', 'hub'],
    ];
    const found = byPrefix.find(([prefix]) => path.startsWith(prefix));
    if (found) return found[1];
  }
  throw new Error(`fuzz world: no record for {${param}} of ${path}: add one to test/helpers/fuzz-world.ts`);
}
