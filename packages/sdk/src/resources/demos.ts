import { PageIterator } from '../pagination.js';
import { type ResourceContext, rawRequest, unwrap, wait } from '../request.js';
import type { Demo, DemoDetail, DemoVersion, Hotspot, QueryParams, RequestBody, Step } from '../types.js';

/**
 * A blank step's fields (POST /v1/demos/:id/steps with JSON); `number` places it (default: at the end).
 *
 * @example
 * ```ts
 * import type { NewStep } from '@demoshare/sdk';
 * const step: NewStep = { title: 'Open the invoice', page_url: 'https://app.example.com/invoices', number: 2 };
 * await client.steps.create(demoId, step);
 * ```
 */
export interface NewStep {
  title?: string;
  description?: string;
  page_url?: string;
  number?: number;
}

/**
 * An image to show on a step: PNG, JPEG or WebP bytes, at most the server's STEP_IMAGE_MAX_BYTES.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * import type { StepImage } from '@demoshare/sdk';
 * const image: StepImage = { bytes: await readFile('screen.png'), contentType: 'image/png' };
 * await client.steps.create(demoId, image);
 * ```
 */
export interface StepImage {
  bytes: Uint8Array | ArrayBuffer | Blob;
  contentType: 'image/png' | 'image/jpeg' | 'image/webp';
}

const isImage = (input: NewStep | StepImage): input is StepImage => 'bytes' in input;

/** Demos: list, read, create (optionally generated from a URL), change, publish, version, delete. */
export function demosResource(ctx: ResourceContext) {
  const { api } = ctx;
  const path = (id: string) => ({ params: { path: { id } } });
  return {
    /**
     * Every demo of the workspace, newest first, optionally by `status` or `search`.
     * @example
     * ```ts
     * for await (const demo of client.demos.list({ status: 'published' })) console.log(demo.title);
     * ```
     */
    list(query: QueryParams<'/v1/demos', 'get'> = {}): PageIterator<Demo> {
      return new PageIterator((page) => unwrap(api.GET('/v1/demos', { params: { query: { ...query, ...page } } })), query);
    },
    /**
     * One demo with its draft steps, hotspots and configuration.
     * @example
     * ```ts
     * const demo = await client.demos.get('demo_01jd3k7q9x8v2m4n6p0r5s7t9w');
     * ```
     */
    async get(id: string): Promise<DemoDetail> {
      return (await unwrap(api.GET('/v1/demos/{id}', path(id)))).data;
    },
    /**
     * A new demo: blank (`title`), or generated from `source_url` with `generate_with_ai: true` (then it
     * answers at once with status `generating`: see `waitForGeneration`).
     * @example
     * ```ts
     * const demo = await client.demos.create({ title: 'Pricing tour', source_url: 'https://example.com/pricing', generate_with_ai: true });
     * ```
     */
    async create(body: RequestBody<'/v1/demos', 'post'>): Promise<DemoDetail> {
      return (await unwrap(api.POST('/v1/demos', { body }))).data;
    },
    /**
     * Changes the title, configuration or status (`published`, `draft`, `archived`).
     * @example
     * ```ts
     * await client.demos.update(id, { title: 'Pricing tour (2027)' });
     * ```
     */
    async update(id: string, body: RequestBody<'/v1/demos/{id}', 'patch'>): Promise<DemoDetail> {
      return (await unwrap(api.PATCH('/v1/demos/{id}', { ...path(id), body }))).data;
    },
    /**
     * Deletes the demo with its steps, links and analytics (admins only).
     * @example
     * ```ts
     * await client.demos.delete(id);
     * ```
     */
    async delete(id: string): Promise<void> {
      await unwrap(api.DELETE('/v1/demos/{id}', path(id)));
    },
    /**
     * Generates the steps again from the demo's `source_url` (202: status `generating`).
     * @example
     * ```ts
     * await client.demos.generate(id, { keep_edited_steps: true });
     * const done = await client.demos.waitForGeneration(id);
     * ```
     */
    async generate(id: string, body: RequestBody<'/v1/demos/{id}/generate', 'post'> = {}): Promise<DemoDetail> {
      return (await unwrap(api.POST('/v1/demos/{id}/generate', { ...path(id), body }))).data;
    },
    /**
     * Polls the demo until it is no longer `generating` (every `intervalMs`, at most `timeoutMs`). A failed
     * generation resolves too: look at `generation.error`.
     * @example
     * ```ts
     * const demo = await client.demos.waitForGeneration(id, { intervalMs: 2000 });
     * if (demo.generation.error) console.error(demo.generation.error);
     * ```
     */
    async waitForGeneration(id: string, options: { intervalMs?: number; timeoutMs?: number } = {}): Promise<DemoDetail> {
      const { intervalMs = 2_000, timeoutMs = 300_000 } = options;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const demo = (await unwrap(api.GET('/v1/demos/{id}', path(id)))).data;
        if (demo.status !== 'generating') return demo;
        if (Date.now() + intervalMs > deadline) throw new Error(`Demo ${id} is still generating after ${timeoutMs} ms`);
        await wait(intervalMs);
      }
    },
    /**
     * Publishes the draft as the next version (viewers see it from now on).
     * @example
     * ```ts
     * const published = await client.demos.publish(id);
     * console.log(published.share_url);
     * ```
     */
    async publish(id: string): Promise<DemoDetail> {
      return (await unwrap(api.POST('/v1/demos/{id}/publish', path(id)))).data;
    },
    /**
     * The demo's published versions, newest first.
     * @example
     * ```ts
     * const versions = await client.demos.versions(id).toArray();
     * ```
     */
    versions(id: string, query: QueryParams<'/v1/demos/{id}/versions', 'get'> = {}): PageIterator<DemoVersion> {
      return new PageIterator(
        (page) => unwrap(api.GET('/v1/demos/{id}/versions', { params: { path: { id }, query: { ...query, ...page } } })),
        query,
      );
    },
    /**
     * Copies a version's title, configuration, steps and hotspots into the draft.
     * @example
     * ```ts
     * await client.demos.restoreVersion(id, 3);
     * ```
     */
    async restoreVersion(id: string, version: number): Promise<DemoDetail> {
      return (await unwrap(api.POST('/v1/demos/{id}/versions/{version}/restore', { params: { path: { id, version } } }))).data;
    },
  };
}

/** Steps of a demo: add (blank or from an image), edit, reorder, replace the image, blur, delete. */
export function stepsResource(ctx: ResourceContext) {
  const { api } = ctx;
  const ids = (id: string, step_id: string) => ({ params: { path: { id, step_id } } });
  return {
    /**
     * Adds a step: blank with `{title?, description?, page_url?, number?}`, or showing an image.
     * @example
     * ```ts
     * await client.steps.create(demoId, { title: 'Open the invoice' });
     * await client.steps.create(demoId, { bytes: png, contentType: 'image/png' });
     * ```
     */
    async create(demoId: string, input: NewStep | StepImage = {}): Promise<Step> {
      const url = `/v1/demos/${encodeURIComponent(demoId)}/steps`;
      const body = isImage(input) ? (input.bytes as BodyInit) : JSON.stringify(input);
      const type = isImage(input) ? input.contentType : 'application/json';
      return (await rawRequest<{ data: Step }>(ctx, 'POST', url, body, { 'content-type': type })).data;
    },
    /**
     * Sets the steps in this order: ids keep their step, objects without an id are new blank steps, steps
     * left out are deleted.
     * @example
     * ```ts
     * const demo = await client.demos.get(demoId);
     * await client.steps.replace(demoId, { steps: demo.steps.map((s) => s.id).reverse() });
     * ```
     */
    async replace(demoId: string, body: RequestBody<'/v1/demos/{id}/steps', 'put'>): Promise<DemoDetail> {
      return (await unwrap(api.PUT('/v1/demos/{id}/steps', { params: { path: { id: demoId } }, body }))).data;
    },
    /**
     * Edits a step's title, description or page address.
     * @example
     * ```ts
     * await client.steps.update(demoId, stepId, { title: 'Send the invoice' });
     * ```
     */
    async update(demoId: string, stepId: string, body: RequestBody<'/v1/demos/{id}/steps/{step_id}', 'patch'>): Promise<Step> {
      return (await unwrap(api.PATCH('/v1/demos/{id}/steps/{step_id}', { ...ids(demoId, stepId), body }))).data;
    },
    /**
     * Deletes a step with its hotspots and image.
     * @example
     * ```ts
     * await client.steps.delete(demoId, stepId);
     * ```
     */
    async delete(demoId: string, stepId: string): Promise<void> {
      await unwrap(api.DELETE('/v1/demos/{id}/steps/{step_id}', ids(demoId, stepId)));
    },
    /**
     * Replaces the step's image (hotspots keep their place).
     * @example
     * ```ts
     * await client.steps.setImage(demoId, stepId, { bytes: await readFile('new.png'), contentType: 'image/png' });
     * ```
     */
    async setImage(demoId: string, stepId: string, image: StepImage): Promise<Step> {
      const url = `/v1/demos/${encodeURIComponent(demoId)}/steps/${encodeURIComponent(stepId)}/image`;
      return (await rawRequest<{ data: Step }>(ctx, 'POST', url, image.bytes as BodyInit, { 'content-type': image.contentType })).data;
    },
    /**
     * Blurs regions or elements of the step's image and snapshot, for good (see docs/demos.md, Blurring).
     * @example
     * ```ts
     * await client.steps.redact(demoId, stepId, { regions: [{ x: 0.1, y: 0.1, width: 0.3, height: 0.05 }] });
     * ```
     */
    async redact(demoId: string, stepId: string, body: RequestBody<'/v1/demos/{id}/steps/{step_id}/redactions', 'post'>): Promise<Step> {
      return (await unwrap(api.POST('/v1/demos/{id}/steps/{step_id}/redactions', { ...ids(demoId, stepId), body }))).data;
    },
  };
}

/** Hotspots of a step: the clickable boxes, as fractions of the step image. */
export function hotspotsResource(ctx: ResourceContext) {
  const { api } = ctx;
  const ids = (id: string, step_id: string, hotspot_id: string) => ({ params: { path: { id, step_id, hotspot_id } } });
  return {
    /**
     * Adds a hotspot to a step.
     * @example
     * ```ts
     * await client.hotspots.create(demoId, stepId, { x: 0.4, y: 0.3, width: 0.2, height: 0.08, label: 'Create invoice' });
     * ```
     */
    async create(demoId: string, stepId: string, body: RequestBody<'/v1/demos/{id}/steps/{step_id}/hotspots', 'post'>): Promise<Hotspot> {
      const params = { params: { path: { id: demoId, step_id: stepId } } };
      return (await unwrap(api.POST('/v1/demos/{id}/steps/{step_id}/hotspots', { ...params, body }))).data;
    },
    /**
     * Moves, resizes or relabels a hotspot, or changes its action.
     * @example
     * ```ts
     * await client.hotspots.update(demoId, stepId, hotspotId, { tooltip: 'Click here to send it' });
     * ```
     */
    async update(
      demoId: string,
      stepId: string,
      hotspotId: string,
      body: RequestBody<'/v1/demos/{id}/steps/{step_id}/hotspots/{hotspot_id}', 'patch'>,
    ): Promise<Hotspot> {
      return (await unwrap(api.PATCH('/v1/demos/{id}/steps/{step_id}/hotspots/{hotspot_id}', { ...ids(demoId, stepId, hotspotId), body }))).data;
    },
    /**
     * Deletes a hotspot.
     * @example
     * ```ts
     * await client.hotspots.delete(demoId, stepId, hotspotId);
     * ```
     */
    async delete(demoId: string, stepId: string, hotspotId: string): Promise<void> {
      await unwrap(api.DELETE('/v1/demos/{id}/steps/{step_id}/hotspots/{hotspot_id}', ids(demoId, stepId, hotspotId)));
    },
  };
}
