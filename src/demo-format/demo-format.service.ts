// Demo files in and out: export a demo as a zip, import one as a new demo, push one onto the demo with its key.
import type { Actor } from '../audit/actor';
import type { AuthContext } from '../auth/permissions';
import { sha256Hex } from '../core/crypto';
import { AppError, type ErrorDetail } from '../core/errors';
import { sniffImage } from '../core/image-sniff';
import type { ContentVersion, DemoDocumentsService, PortableAsset, PortableDemo } from '../demos/demo-documents';
import type { DocumentPool } from '../document-tasks';
import type { ArchiveLimits } from './demo-archive';
import { fromDocument, serializeDocument, toDocument } from './demo-document';
import { demoDocumentSchema, SCHEMA_PATH } from './demo-document.schemas';
import { upgradeDocument } from './demo-document.upgrade';

export interface DemoFormatDeps {
  documents: Pick<DemoDocumentsService, 'read' | 'create' | 'push' | 'keyOf' | 'setKey' | 'pageDigestsOfKey'>;
  pool: Pick<DocumentPool, 'run'>;
  appUrl: string;
  limits: ArchiveLimits & { imageBytes: number; snapshotBytes: number };
}

const HTML_TYPE = 'text/html; charset=utf-8';
const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };
const extensionOf = (contentType: string) => (contentType.startsWith('text/html') ? 'html' : (EXTENSIONS[contentType] ?? 'bin'));

/** A zod issue's path as the document names it: `steps[3].hotspots[0].action.target`. */
export function documentPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out ? '.' : ''}${String(part)}`;
  return out || '(root)';
}

const refused = (details: ErrorDetail[]) =>
  new AppError(
    'validation_error',
    `demo.json has ${details.length === 1 ? 'a problem' : `${details.length} problems`}: ${details
      .slice(0, 5)
      .map((d) => `${d.field} ${d.message}`)
      .join('; ')}${details.length > 5 ? '; …' : ''}`,
    { details: details.slice(0, 100) },
  );

/**
 * The demo-file service: the document (demo-document.ts) over the demos' whole-demo port, the zip work in the
 * document workers. An import or push is checked whole (schema, references, every asset's digest and type,
 * snapshots cleaned) before anything is written, and written in one transaction.
 *
 * @example
 * ```ts
 * const files = createDemoFormat({ documents: demos.documents, pool: kernel.documents, appUrl, limits });
 * const { zip, filename } = await files.exportDemo(auth, 'demo_01j…', 'draft');
 * const pushed = await files.push(auth, 'onboarding', zip, { publish: true, actor }); // outcome 'unchanged'
 * ```
 */
export function createDemoFormat(deps: DemoFormatDeps) {
  const schemaUrl = `${deps.appUrl.replace(/\/+$/, '')}${SCHEMA_PATH}`;

  /**
   * Reads a zip whole: demo.json upgraded and valid, every asset it names present, of its kind and digest.
   * Captured pages whose digest is in `clean` are stored clean already and are not cleaned again.
   */
  async function read(zip: Buffer, clean: ReadonlySet<string> = new Set()): Promise<{ portable: PortableDemo; assets: Map<string, PortableAsset>; key: string | null }> {
    const unpacked = await deps.pool.run('unpackDemoArchive', [zip, deps.limits], { field: 'archive', what: 'The demo file' });
    const { upgraded } = upgradeDocument(unpacked.document);
    const parsed = demoDocumentSchema.safeParse(upgraded);
    if (!parsed.success) throw refused(parsed.error.issues.map((i) => ({ field: documentPath(i.path), message: i.message })));
    const { portable, uses, problems } = fromDocument(parsed.data);
    const assets = new Map<string, PortableAsset>();
    const renamed = new Map<string, string>();
    for (const use of uses) {
      const bytes = unpacked.assets[use.digest];
      if (!bytes) {
        problems.push({ field: use.field, message: `names sha256:${use.digest}, which is not in the archive (assets/${use.digest}.<ext>)` });
        continue;
      }
      const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (!assets.has(use.digest) && sha256Hex(buffer) !== use.digest) {
        problems.push({ field: use.field, message: `${unpacked.names[use.digest]} does not have the SHA-256 its name says` });
        continue;
      }
      if (use.kind === 'image') {
        const info = sniffImage(buffer);
        if (!info) problems.push({ field: use.field, message: 'is not a PNG, JPEG or WebP image (read from its bytes)' });
        else if (buffer.length > deps.limits.imageBytes) problems.push({ field: use.field, message: `is larger than ${deps.limits.imageBytes} bytes (STEP_IMAGE_MAX_BYTES)` });
        else assets.set(use.digest, { contentType: info.contentType, bytes: buffer });
        continue;
      }
      if (buffer.length > deps.limits.snapshotBytes) {
        problems.push({ field: use.field, message: `is larger than ${deps.limits.snapshotBytes} bytes (RECORDING_SNAPSHOT_MAX_BYTES)` });
        continue;
      }
      let html: string;
      try {
        html = new TextDecoder('utf-8', { fatal: true }).decode(buffer);
      } catch {
        problems.push({ field: use.field, message: 'is not UTF-8 text' });
        continue;
      }
      // Cleaned as recorded snapshots are (no scripts, no handlers, private fields emptied): a demo file is
      // user input, served to viewers. A clean snapshot comes out the same, so a round trip keeps its digest.
      const cleaned: string = clean.has(use.digest)
        ? html
        : await deps.pool.run('cleanSnapshot', [html, use.pageUrl ?? 'https://invalid.invalid/'], { field: use.field, what: 'The snapshot' });
      const bytesOut = Buffer.from(cleaned, 'utf8');
      const digest = sha256Hex(bytesOut);
      assets.set(digest, { contentType: HTML_TYPE, bytes: bytesOut });
      renamed.set(`${use.field}`, digest);
    }
    if (problems.length > 0) throw refused(problems);
    // Snapshots whose cleaning changed them are named by their new digest.
    portable.snapshot.steps.forEach((s, i) => {
      const digest = renamed.get(`steps[${i}].html`);
      if (digest) s.html_asset_id = digest;
    });
    return { portable, assets, key: parsed.data.key ?? null };
  }

  return {
    schemaUrl,

    /** The demo (its draft, newest published version or version n) as a zip: demo.json and assets/. */
    async exportDemo(auth: Pick<AuthContext, 'workspaceId'>, id: string, version: ContentVersion) {
      const { demo, portable, assets } = await deps.documents.read(auth, id, version);
      const json = serializeDocument(toDocument(portable, demo.key, schemaUrl));
      const files = [...assets].map(([digest, a]) => ({
        name: `assets/${digest}.${extensionOf(a.contentType)}`,
        bytes: a.bytes,
        compress: a.contentType.startsWith('text/'),
      }));
      const zip: Uint8Array = await deps.pool.run('packDemoArchive', [json, files], { what: 'The demo file' });
      const base = (demo.key ?? demo.id).replace(/[^a-z0-9._-]/gi, '-');
      return { zip: Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength), filename: `${base}.demo.zip`, json };
    },

    /** A new draft demo from a zip (its key kept: 409 when another demo has it); answers the demo's id. */
    async importDemo(auth: AuthContext, zip: Buffer) {
      const { portable, assets, key } = await read(zip);
      return deps.documents.create(auth, portable, assets, key);
    },

    /** Creates or updates the demo with `key` from a zip, publishing it when asked; nothing when it is the same. */
    async push(auth: AuthContext, key: string, zip: Buffer, options: { publish: boolean; actor: Actor; dryRun?: boolean }) {
      const { portable, assets, key: named } = await read(zip, await deps.documents.pageDigestsOfKey(auth, key));
      if (named !== null && named !== key) {
        throw refused([{ field: 'key', message: `is ${named}, but the address pushes to ${key}: they must be the same (or leave key out)` }]);
      }
      return deps.documents.push(auth, key, portable, assets, options);
    },

    keyOf: (auth: Pick<AuthContext, 'workspaceId'>, id: string) => deps.documents.keyOf(auth, id),
    setKey: (auth: Pick<AuthContext, 'workspaceId'>, id: string, key: string | null) => deps.documents.setKey(auth, id, key),
  };
}

export type DemoFormatService = ReturnType<typeof createDemoFormat>;
