import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ERROR_CODES } from './errors';

/**
 * The response envelope of DESIGN.md: `{data, meta}` for one object, `{data: [...], meta: {total, page,
 * per_page}}` for a page. Route schemas wrap their item schemas with these, so the OpenAPI document and
 * the serializer (an allow-list) come from one place.
 */
const requestMeta = z.object({ request_id: z.string().meta({ example: 'req_01jd3k7q9x8v2m4n6p0r5s7t9w' }) });

/**
 * The response schema of one object: `{data: item, meta: {request_id}}`.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { dataEnvelope } from './envelope';
 *
 * const response = { 200: dataEnvelope(z.object({ id: z.string(), title: z.string() })) };
 * ```
 */
export function dataEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ data: item, meta: requestMeta });
}

/**
 * The response schema of a page: `{data: [item], meta: {request_id, total, page, per_page}}`.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { listEnvelope } from './envelope';
 *
 * const response = { 200: listEnvelope(z.object({ id: z.string() })) };
 * ```
 */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    meta: requestMeta.extend({
      total: z.number().int().min(0),
      page: z.number().int().min(1),
      per_page: z.number().int().min(1),
    }),
  });
}

/**
 * The response schema of every error: `{error: {code, message, request_id, details?}}`.
 *
 * @example
 * ```ts
 * import { errorEnvelope } from './envelope';
 *
 * const response = { 404: errorEnvelope, 409: errorEnvelope };
 * ```
 */
export const errorEnvelope = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      request_id: z.string(),
      details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    }),
  })
  .meta({ id: 'Error' });

/**
 * Sends `{data, meta}` around `data`, already serialised: the form of cached hot reads. A string rather
 * than bytes: Node joins a string body to the header block and writes them as one chunk, where bytes go
 * out as a second chunk; measured, that costs more than encoding a few kilobytes (docs/benchmarks.md).
 *
 * @example
 * ```ts
 * import type { FastifyReply, FastifyRequest } from 'fastify';
 * import { sendSerializedData } from './envelope';
 *
 * declare const request: FastifyRequest, reply: FastifyReply;
 * sendSerializedData(request, reply, '{"id":"demo_01jd3k7q9x8v2m4n6p0r5s7t9w"}');
 * ```
 */
export function sendSerializedData(request: FastifyRequest, reply: FastifyReply, data: string) {
  return reply
    .type('application/json; charset=utf-8')
    .send(`{"data":${data},"meta":{"request_id":${JSON.stringify(request.id)}}}`);
}

/**
 * A handler's answer for one object, in the `{data, meta}` envelope.
 *
 * @example
 * ```ts
 * import type { FastifyRequest } from 'fastify';
 * import { ok } from './envelope';
 *
 * declare const request: FastifyRequest;
 * const body = ok(request, { id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w' }); // { data: {...}, meta: { request_id } }
 * ```
 */
export function ok<T>(request: FastifyRequest, data: T) {
  return { data, meta: { request_id: request.id } };
}

export interface PageInfo {
  page: number;
  perPage: number;
  total: number;
}

/**
 * A handler's answer for one page of a list (see `paginate`, which most lists use).
 *
 * @example
 * ```ts
 * import type { FastifyRequest } from 'fastify';
 * import { page } from './envelope';
 *
 * declare const request: FastifyRequest;
 * const body = page(request, [{ id: 'a' }], { total: 41, page: 3, perPage: 20 });
 * ```
 */
export function page<T>(request: FastifyRequest, data: T[], info: PageInfo) {
  return {
    data,
    meta: { total: info.total, page: info.page, per_page: info.perPage, request_id: request.id },
  };
}

/**
 * A response of raw bytes in one of `types` (images, HTML snapshots), documented as binary per media type.
 * Fastify sends a Buffer as is: the schema only documents it.
 *
 * @example
 * ```ts
 * import { bytesResponse } from './envelope';
 *
 * const response = { 200: bytesResponse('The step image', ['image/png', 'image/webp']) };
 * ```
 */
export function bytesResponse(description: string, types: readonly string[]) {
  const schema = z.custom<Buffer>((v) => Buffer.isBuffer(v)).meta({ type: 'string', format: 'binary' });
  return { description, content: Object.fromEntries(types.map((type) => [type, { schema }])) };
}

/**
 * The 204 reply of every delete.
 *
 * @example
 * ```ts
 * import { errorEnvelope, noContent } from './envelope';
 *
 * const response = { 204: noContent, 404: errorEnvelope };
 * ```
 */
export const noContent = z.null().meta({ description: 'No content' });
