// GET /extension/…: the recorder extension as this instance hands it out, so that nobody builds it from source.
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { bytesResponse, errorEnvelope, noContent } from '../core/envelope';
import { AppError } from '../core/errors';
import type { ZodApp } from '../core/http/types';
import type { ModuleContext, Services } from '../module';
import { type InstancePackage, packForInstance } from './instance-package';

const BUILD_DIR = fileURLToPath(new URL('../../dist/extension', import.meta.url));
const tags = ['Recorder extension'];
export const ZIP_PATH = '/extension/demoshare-recorder.zip';

const NOT_BUILT =
  'The recorder extension has not been built on this server: run npm run build:extension (npm ci runs it) and restart.';

const recorderInfo = z
  .object({
    name: z.string().meta({ description: 'The extension’s name in the browser.' }),
    version: z.string().meta({ description: 'Its version (the version of this Demoshare).' }),
    extension_id: z.string().meta({ description: 'The id Chromium gives it when installed from the zip (its manifest carries the public key).' }),
    download_url: z.string().meta({ description: 'The zip, relative to this server.' }),
    size: z.number().int().meta({ description: 'Bytes of the zip.' }),
    instance_url: z.string().meta({ description: 'The address the zip fills in for connecting (APP_URL).' }),
  })
  .meta({
    examples: [
      {
        name: 'Demoshare Recorder',
        version: '0.1.0',
        extension_id: 'hndijdjkhibnckcfpfhekjgiokmoppli',
        download_url: ZIP_PATH,
        size: 46210,
        instance_url: 'https://demos.example.com',
      },
    ],
  });

/** The zip and its description, outside /v1 and without credentials: the install page links to them. */
export function recorderExtensionRoutes(app: ZodApp, ctx: ModuleContext<Services['recorderExtension']>, buildDir = BUILD_DIR) {
  let packed: InstancePackage | null = null;
  /** Packed once per process, on first use: the build does not change under a running server. */
  const current = (): InstancePackage => {
    packed ??= packForInstance(buildDir, ctx.config.APP_URL);
    if (!packed) throw new AppError('not_found', NOT_BUILT);
    return packed;
  };

  // GET /extension/recorder.json — what the install page shows
  app.get(
    '/extension/recorder.json',
    {
      schema: {
        tags,
        summary: 'Describe the recorder extension this server hands out',
        description: 'Its version, id and download address. 404 when the extension has not been built on this server.',
        response: { 200: recorderInfo, 404: errorEnvelope },
      },
    },
    async (_request, reply) => {
      const pkg = current();
      reply.header('cache-control', 'no-cache');
      return {
        name: 'Demoshare Recorder',
        version: pkg.version,
        extension_id: pkg.extensionId,
        download_url: ZIP_PATH,
        size: pkg.zip.length,
        instance_url: ctx.config.APP_URL,
      };
    },
  );

  // GET /extension/demoshare-recorder.zip — the extension, with this server's address filled in
  app.get(
    ZIP_PATH,
    {
      schema: {
        tags,
        summary: 'Download the recorder extension',
        description:
          'The built extension for Chromium-based browsers (Chrome, Edge, Brave) as a zip, with `instance.json` naming this ' +
          'server (APP_URL) so that its popup offers it to connect to. Unzip it and load it unpacked (docs/recorder.md). ' +
          'Revalidated on each use (`ETag`, `If-None-Match` answers 304): an upgraded server hands out its new version. ' +
          '404 when the extension has not been built on this server.',
        response: {
          200: bytesResponse('The extension as a zip archive.', ['application/zip']),
          304: noContent,
          404: errorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const pkg = current();
      reply.header('etag', pkg.etag).header('cache-control', 'public, no-cache');
      if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(pkg.etag)) return reply.code(304).send(null);
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="demoshare-recorder-${pkg.version}.zip"`)
        .header('x-content-type-options', 'nosniff')
        .send(pkg.zip);
    },
  );
}
