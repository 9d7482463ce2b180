import { Transform } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { dataEnvelope, errorEnvelope, noContent, ok } from '../core/envelope';
import { AppError, invalid } from '../core/errors';
import { formatBytes } from '../core/http/error-handler';
import { callerOf, type ZodApp } from '../core/http/types';
import type { ModuleContext, Services } from '../module';
import { type DigestAlgorithm, digestsOf, parseContentDigest } from './content-digest';
import {
  createRecordingBody,
  recordedStepBody,
  recordedStepHeaders,
  recordingParams,
  recordingSchema,
  recordingStepParams,
  toRecording,
} from './recordings.schemas';

const tags = ['Recordings'];
const base = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };
const withState = { ...base, 409: errorEnvelope, 410: errorEnvelope };

interface BodyHash {
  expected: Partial<Record<DigestAlgorithm, Buffer>>;
  size: number;
  computed?: Record<string, Buffer>;
}

/** The digests a step upload declared and those of the bytes that arrived, per request. */
const hashes = new WeakMap<FastifyRequest, BodyHash>();

export function recordingsRoutes(app: ZodApp, ctx: ModuleContext<Services['recordings']>) {
  const { recordings } = ctx.services;
  const appUrl = ctx.config.APP_URL.replace(/\/+$/, '');
  const stepLimit = ctx.config.RECORDING_STEP_MAX_BYTES;
  const urls = { editor: (demoId: string) => `${appUrl}/demos/${demoId}`, maxStepBytes: stepLimit };

  // POST /v1/recordings — start an upload of recorded steps
  app.post(
    '/recordings',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Start a recording upload',
        description:
          'Announces `step_count` steps, then PUT each one to /v1/recordings/{id}/steps/{number} (in any order, ' +
          'resumable) and complete it with POST /v1/recordings/{id}/complete. The demo (and step) to add to must ' +
          'exist in your workspace (404) and not be generating (409). Uploads expire 24 hours after creation. ' +
          'See docs/recording-upload.md.',
        body: createRecordingBody,
        response: { 201: dataEnvelope(recordingSchema), ...base, 409: errorEnvelope },
      },
    },
    async (request, reply) => {
      const recording = await recordings.create(callerOf(request), request.body);
      reply.code(201);
      return ok(request, toRecording(recording, urls));
    },
  );

  // GET /v1/recordings/:id — what an upload holds and still misses (how a client resumes)
  app.get(
    '/recordings/:id',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'Get a recording upload',
        description:
          '`missing` lists the steps still to upload: a client that was interrupted sends those, then ' +
          'completes. Only the member who created the recording sees it (404 for anyone else). 410 once expired.',
        params: recordingParams,
        response: { 200: dataEnvelope(recordingSchema), ...base, 410: errorEnvelope },
      },
    },
    async (request) => ok(request, toRecording(await recordings.get(callerOf(request), request.params.id), urls)),
  );

  // PUT /v1/recordings/:id/steps/:number — upload one recorded step (idempotent)
  app.put(
    '/recordings/:id/steps/:number',
    {
      config: { permission: 'demos.write' },
      bodyLimit: stepLimit,
      schema: {
        tags,
        summary: 'Upload a recorded step',
        description:
          'The header `Content-Digest: sha-256=:<base64 of the SHA-256 of the exact body bytes>:` (RFC 9530) is ' +
          'required (400 without it, 400 `checksum_mismatch` when the body does not match it). The same body ' +
          'again changes nothing; another body for the same number replaces the step until the recording is ' +
          'completed (409 after). 413 names the limit exceeded: the body (RECORDING_STEP_MAX_BYTES), the ' +
          'decoded screenshot (STEP_IMAGE_MAX_BYTES), the snapshot (RECORDING_SNAPSHOT_MAX_BYTES) or the time ' +
          'its cleaning may take (DOCUMENT_TASK_TIMEOUT); 400 for a snapshot whose elements nest more than 512 ' +
          'levels deep; 415 for a screenshot that is not a PNG, JPEG or WebP image; 503 with Retry-After while ' +
          'the server has more snapshots waiting to be cleaned than DOCUMENT_QUEUE.',
        params: recordingStepParams,
        headers: recordedStepHeaders,
        body: recordedStepBody,
        response: { 200: dataEnvelope(recordingSchema), ...withState, 413: errorEnvelope, 415: errorEnvelope },
      },
      // Before the body is read: a request without a digest, or announcing too large a body, is refused
      // at once; otherwise the bytes are hashed as they stream into the JSON parser.
      preParsing: async (request, _reply, payload) => {
        const header = request.headers['content-digest'];
        if (header === undefined || header === '') {
          throw invalid('The Content-Digest header is required: sha-256=:<base64 of the SHA-256 of the body>: (RFC 9530)', [
            { field: 'Content-Digest', message: 'required' },
          ]);
        }
        const expected = parseContentDigest(String(header));
        if (!expected) {
          throw invalid('Content-Digest must be sha-256=:<base64 of the SHA-256 of the body>: (RFC 9530)', [
            { field: 'Content-Digest', message: 'must carry a sha-256 (or sha-512) digest as :base64:' },
          ]);
        }
        const length = Number(request.headers['content-length']);
        if (length > stepLimit) {
          throw new AppError(
            'payload_too_large',
            `The request body is ${formatBytes(length)}: the limit is ${formatBytes(stepLimit)} (RECORDING_STEP_MAX_BYTES)`,
            { details: [{ field: 'body', message: `may be at most ${formatBytes(stepLimit)} (RECORDING_STEP_MAX_BYTES)` }] },
          );
        }
        const algorithms = [...new Set<DigestAlgorithm>(['sha-256', ...(Object.keys(expected) as DigestAlgorithm[])])];
        const hashing = digestsOf(algorithms);
        const state: BodyHash = { expected, size: 0 };
        hashes.set(request, state);
        const tee = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            hashing.update(chunk);
            state.size += chunk.length;
            done(null, chunk);
          },
          flush(done) {
            state.computed = hashing.digest();
            done();
          },
        });
        payload.on('error', (error) => tee.destroy(error));
        return payload.pipe(tee);
      },
      // After parsing, before the schema: a body changed on the way is a checksum error, not a field error.
      preValidation: async (request) => {
        const state = hashes.get(request);
        const computed = state?.computed;
        // No body was read (none was sent): the schema refuses it next.
        if (!state || !computed) return;
        for (const [algorithm, value] of Object.entries(state.expected)) {
          if (!value.equals(computed[algorithm]!)) {
            throw new AppError('checksum_mismatch', `The body does not match its Content-Digest (${algorithm}): send it again`, {
              details: [{ field: 'Content-Digest', message: `does not match the ${algorithm} of the body` }],
            });
          }
        }
      },
    },
    async (request) => {
      const state = hashes.get(request);
      const sha256 = state?.computed?.['sha-256'];
      if (!state || !sha256) throw invalid('The step body is missing');
      const digest = { sha256: sha256.toString('hex'), size: state.size };
      const recording = await recordings.putStep(callerOf(request), request.params.id, request.params.number, request.body, digest);
      return ok(request, toRecording(recording, urls));
    },
  );

  // POST /v1/recordings/:id/complete — build the demo from the uploaded steps
  app.post(
    '/recordings/:id/complete',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Complete a recording',
        description:
          'Builds the demo in one transaction: a new draft demo (mode `new`), steps added at the end (`append`) ' +
          'or one step replaced (`replace_step`), each with its screenshot, sanitised snapshot and a hotspot on ' +
          'its target; then the uploaded steps are deleted. 409 `recording_incomplete` lists the steps still ' +
          'missing. Completing again answers the same result. 410 once expired.',
        params: recordingParams,
        response: { 200: dataEnvelope(recordingSchema), ...withState },
      },
    },
    async (request) => ok(request, toRecording(await recordings.complete(callerOf(request), request.params.id), urls)),
  );

  // DELETE /v1/recordings/:id — discard an upload
  app.delete(
    '/recordings/:id',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Discard a recording',
        description: 'Deletes the recording and its uploaded steps; a demo it completed stays.',
        params: recordingParams,
        response: { 204: noContent, ...base },
      },
    },
    async (request, reply) => {
      await recordings.discard(callerOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
