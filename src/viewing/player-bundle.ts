// The player's two files (dist/player), served from memory: every cold share link asks for both, beside its picture.
import { readFileSync, statSync } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { sha256Hex } from '../core/crypto';

interface Loaded {
  mtimeMs: number;
  etag: string;
  plain: Buffer;
  br: Buffer;
  gzip: Buffer;
}

const TYPES: Record<string, string> = {
  'player.js': 'text/javascript; charset=utf-8',
  'player.css': 'text/css; charset=utf-8',
};

/** If-None-Match, compared weakly (RFC 9110 §13.1.2): a list of tags or `*`. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/**
 * A handler for GET /player/:file that answers the built player's files from memory, compressed once
 * (Brotli, else gzip, by Accept-Encoding), with an ETag: the names carry no content hash (the viewer page
 * names them), so browsers revalidate (no-cache) instead of keeping last release's player. A file rebuilt
 * under the running server (its modification time) is read again. Anything else under /player/ is a 404.
 *
 * @example
 * app.get('/player/:file', { schema: { hide: true } }, playerBundle('/srv/dist/player'));
 */
export function playerBundle(root: string) {
  const loaded = new Map<string, Loaded>();
  const load = (name: string): Loaded | undefined => {
    const path = `${root}/${name}`;
    let mtimeMs: number;
    try {
      mtimeMs = statSync(path).mtimeMs;
    } catch {
      return undefined;
    }
    const known = loaded.get(name);
    if (known && known.mtimeMs === mtimeMs) return known;
    const plain = readFileSync(path);
    const fresh = {
      mtimeMs,
      etag: `"${sha256Hex(plain).slice(0, 32)}"`,
      plain,
      br: brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
      gzip: gzipSync(plain, { level: 9 }),
    };
    loaded.set(name, fresh);
    return fresh;
  };
  return async (request: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply) => {
    const { file } = request.params;
    const type = TYPES[file];
    const found = type ? load(file) : undefined;
    if (!type || !found) return reply.callNotFound();
    reply.header('cache-control', 'no-cache').header('etag', found.etag).header('vary', 'accept-encoding');
    if (matches(request.headers['if-none-match'], found.etag)) return reply.code(304).send();
    const accepts = String(request.headers['accept-encoding'] ?? '');
    const [encoding, bytes] = /\bbr\b/.test(accepts)
      ? ['br', found.br]
      : /\bgzip\b/.test(accepts)
        ? ['gzip', found.gzip]
        : [undefined, found.plain];
    if (encoding) reply.header('content-encoding', encoding);
    return reply.type(type).send(bytes);
  };
}
