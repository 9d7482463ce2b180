import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ERROR_CODES } from './errors';

/**
 * The response envelope of DESIGN.md: `{data, meta}` for one object, `{data: [...], meta: {total, page,
 * per_page}}` for a page. Route schemas wrap their item schemas with these, so the OpenAPI document and
 * the serializer (an allow-list) come from one place.
 */
const requestMeta = z.object({ request_id: z.string().meta({ example: 'req_01jd3k7q9x8v2m4n6p0r5s7t9w' }) });

export function dataEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ data: item, meta: requestMeta });
}

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

const DATA_OPEN = Buffer.from('{"data":');

/**
 * Sends `{data, meta}` around `data`, already serialised and encoded: the form of cached hot reads. Bytes
 * rather than a string spare Fastify a UTF-8 length scan and an encoding of the whole body per request.
 */
export function sendSerializedData(request: FastifyRequest, reply: FastifyReply, data: Buffer) {
  const meta = Buffer.from(`,"meta":{"request_id":${JSON.stringify(request.id)}}}`);
  return reply.type('application/json; charset=utf-8').send(Buffer.concat([DATA_OPEN, data, meta]));
}

export function ok<T>(request: FastifyRequest, data: T) {
  return { data, meta: { request_id: request.id } };
}

export interface PageInfo {
  page: number;
  perPage: number;
  total: number;
}

export function page<T>(request: FastifyRequest, data: T[], info: PageInfo) {
  return {
    data,
    meta: { total: info.total, page: info.page, per_page: info.perPage, request_id: request.id },
  };
}

/** The 204 reply of every delete. */
export const noContent = z.null().meta({ description: 'No content' });
