import { describe, expect, it } from 'vitest';
import { appUrlWarning, loadConfig } from './config';

describe('APP_URL', () => {
  it('defaults to this machine on the configured port', () => {
    expect(loadConfig({}).APP_URL).toBe('http://localhost:3000');
    expect(loadConfig({ PORT: '3100' }).APP_URL).toBe('http://localhost:3100');
    expect(loadConfig({ PORT: '3100', APP_URL: 'https://demos.example.com' }).APP_URL).toBe('https://demos.example.com');
    expect(loadConfig({ APP_URL: '' }).APP_URL).toBe('http://localhost:3000');
  });

  it('warns when it names this machine on a port the server does not listen on', () => {
    expect(appUrlWarning({ APP_URL: 'http://localhost:3000' }, 3100)).toMatch(
      /^Warning: APP_URL is http:\/\/localhost:3000, but this server listens on port 3100: .*http:\/\/localhost:3100/,
    );
    expect(appUrlWarning({ APP_URL: 'http://127.0.0.1:8080/' }, 3000)).toBeDefined();
    expect(appUrlWarning({ APP_URL: 'http://localhost' }, 3000)).toBeDefined();
    expect(appUrlWarning({ APP_URL: 'http://localhost:3100' }, 3100)).toBeUndefined();
    expect(appUrlWarning({ APP_URL: 'http://localhost' }, 80)).toBeUndefined();
    // A public name is a proxy's address: it is not expected to match the port behind the proxy.
    expect(appUrlWarning({ APP_URL: 'https://demos.example.com' }, 3000)).toBeUndefined();
  });
});

describe('MAX_EVENT_LOOP_DELAY', () => {
  it('is off unless set, and refused on the embedded database, whose work runs on the loop it would measure', () => {
    expect(loadConfig({}).MAX_EVENT_LOOP_DELAY).toBe(0);
    expect(() => loadConfig({ MAX_EVENT_LOOP_DELAY: '100ms' })).toThrow(/MAX_EVENT_LOOP_DELAY: load shedding needs DATABASE_URL \(PostgreSQL\)/);
    expect(loadConfig({ MAX_EVENT_LOOP_DELAY: '0s' }).MAX_EVENT_LOOP_DELAY).toBe(0);
    expect(loadConfig({ MAX_EVENT_LOOP_DELAY: '100ms', DATABASE_URL: 'postgres://db.example.com/demoshare' }).MAX_EVENT_LOOP_DELAY).toBe(100);
  });
});

describe('WORKER_PORT', () => {
  it('is unset unless set (a worker listens on nothing), and refuses what is not a port with one clear line', () => {
    expect(loadConfig({}).WORKER_PORT).toBeUndefined();
    expect(loadConfig({ WORKER_PORT: '' }).WORKER_PORT).toBeUndefined();
    expect(loadConfig({ WORKER_PORT: '9100' }).WORKER_PORT).toBe(9100);
    expect(loadConfig({ WORKER_PORT: '65535' }).WORKER_PORT).toBe(65535);
    for (const bad of ['0', '65536', '-1', '9100.5', 'metrics', '9100/tcp']) {
      expect(() => loadConfig({ WORKER_PORT: bad }), bad).toThrow(
        /^Invalid configuration:\n {2}- WORKER_PORT: must be a port number from 1 to 65535, or unset for no port$/,
      );
    }
  });
});

describe('SIGNUP', () => {
  it('is open unless set; domains needs SIGNUP_ALLOWED_DOMAINS, and only domains reads it', () => {
    expect(loadConfig({})).toMatchObject({ SIGNUP: 'open', SIGNUP_ALLOWED_DOMAINS: [] });
    expect(loadConfig({ SIGNUP: 'invite' }).SIGNUP).toBe('invite');
    expect(loadConfig({ SIGNUP: 'domains', SIGNUP_ALLOWED_DOMAINS: ' Example.com, corp.example ' }).SIGNUP_ALLOWED_DOMAINS).toEqual(['example.com', 'corp.example']);
    expect(() => loadConfig({ SIGNUP: 'closed' })).toThrow(/SIGNUP: /);
    expect(() => loadConfig({ SIGNUP: 'domains' })).toThrow(/SIGNUP_ALLOWED_DOMAINS: list the e-mail domains/);
    expect(() => loadConfig({ SIGNUP_ALLOWED_DOMAINS: 'example.com' })).toThrow(/SIGNUP_ALLOWED_DOMAINS: only read when SIGNUP=domains/);
    expect(() => loadConfig({ SIGNUP: 'domains', SIGNUP_ALLOWED_DOMAINS: '@example.com' })).toThrow(/must be a domain such as example.com/);
  });
});

describe('ASSET_STORE', () => {
  it('keeps assets in files beside the embedded database and in PostgreSQL unless set; s3 needs a bucket, and keys come in pairs', async () => {
    const { assetStoreOf } = await import('./asset-store');
    expect(loadConfig({})).toMatchObject({ ASSET_STORE: 'filesystem', S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: false, S3_PREFIX: '', S3_TIMEOUT: 10_000 });
    expect(assetStoreOf(loadConfig({}))?.kind).toBe('filesystem');
    const postgres = 'postgres://demoshare@db.internal/demoshare';
    expect(loadConfig({ DATABASE_URL: postgres }).ASSET_STORE).toBe('database');
    expect(assetStoreOf(loadConfig({ DATABASE_URL: postgres }))).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: postgres, ASSET_STORE: 'filesystem' }).ASSET_STORE).toBe('filesystem');
    expect(loadConfig({ ASSET_STORE: 'database' }).ASSET_STORE).toBe('database');
    expect(() => loadConfig({ ASSET_STORE: 'disk' })).toThrow(/ASSET_STORE: /);
    expect(() => loadConfig({ ASSET_STORE: 's3' })).toThrow(/S3_BUCKET: name the bucket/);
    expect(() => loadConfig({ ASSET_GC_GRACE: '10m' })).toThrow(/ASSET_GC_GRACE: at least 1h/);
    expect(loadConfig({ ASSET_GC_GRACE: '2d' }).ASSET_GC_GRACE).toBe(2 * 86_400_000);
    expect(() => loadConfig({ ASSET_STORE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'AKIA' })).toThrow(/S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both/);
    const s3 = loadConfig({ ASSET_STORE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' });
    expect(s3).toMatchObject({ S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: true });
    const store = assetStoreOf(s3)!;
    expect(store.kind).toBe('s3');
    await store.close();
  });

  it('redirects to presigned addresses only from a bucket, and names a CDN only for a blob store', () => {
    const bucket = { ASSET_STORE: 's3', S3_BUCKET: 'b' };
    expect(loadConfig({})).toMatchObject({ ASSET_REDIRECT: 'off', ASSET_PRESIGN_TTL: 600_000 });
    expect(loadConfig({}).ASSET_PUBLIC_URL).toBeUndefined();
    expect(loadConfig({ ...bucket, ASSET_REDIRECT: 'presigned', ASSET_PRESIGN_TTL: '1h' })).toMatchObject({ ASSET_REDIRECT: 'presigned', ASSET_PRESIGN_TTL: 3_600_000 });
    expect(() => loadConfig({ ASSET_STORE: 'filesystem', ASSET_REDIRECT: 'presigned' })).toThrow(/ASSET_REDIRECT: presigned needs ASSET_STORE=s3/);
    expect(() => loadConfig({ ...bucket, ASSET_REDIRECT: 'always' })).toThrow(/ASSET_REDIRECT: /);
    expect(() => loadConfig({ ...bucket, ASSET_PRESIGN_TTL: '8d' })).toThrow(/ASSET_PRESIGN_TTL: between 1m and 7d/);
    expect(() => loadConfig({ ...bucket, ASSET_PRESIGN_TTL: '30s' })).toThrow(/ASSET_PRESIGN_TTL: between 1m and 7d/);
    expect(loadConfig({ ASSET_STORE: 'filesystem', ASSET_PUBLIC_URL: 'https://cdn.example.com/v1/public-assets' }).ASSET_PUBLIC_URL).toBe(
      'https://cdn.example.com/v1/public-assets',
    );
    expect(() => loadConfig({ ASSET_STORE: 'database', ASSET_PUBLIC_URL: 'https://cdn.example.com' })).toThrow(/ASSET_PUBLIC_URL: needs ASSET_STORE=filesystem or s3/);
    expect(loadConfig({ ASSET_PUBLIC_URL: 'https://cdn.example.com' }).ASSET_PUBLIC_URL).toBe('https://cdn.example.com');
    expect(() => loadConfig({ ...bucket, ASSET_PUBLIC_URL: 'https://cdn.example.com/?v=1' })).toThrow(/ASSET_PUBLIC_URL: an http\(s\) base address/);
    expect(() => loadConfig({ ...bucket, ASSET_PUBLIC_URL: 'not a url' })).toThrow(/ASSET_PUBLIC_URL/);
  });
});
