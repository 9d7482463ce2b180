import { actorOf } from '../audit/actor';
import { dataEnvelope, errorEnvelope, listEnvelope, noContent, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { paginate, paginationQuery } from '../core/pagination';
import type { ModuleContext, Services } from '../module';
import { hostKey } from './domain-name';
import { addDomainBody, domainParams, domainSchema, tlsAskQuery, toDomain, updateDomainBody } from './domains.schemas';

const tags = ['Domains'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };
const config = { permission: 'domains.manage' } as const;

export function domainsRoutes(app: ZodApp, ctx: ModuleContext<Services['domains']>) {
  const { domains, cnameTarget, scheme } = ctx.services;
  const answer = (row: Parameters<typeof toDomain>[0]) => toDomain(row, cnameTarget, scheme);

  // GET /v1/domains — the workspace's custom domains
  app.get(
    '/domains',
    {
      config,
      schema: {
        tags,
        summary: 'List custom domains',
        description:
          'Oldest first, with each one’s status and the DNS records to create. Links use the one marked `primary`: the verified ' +
          'domain an admin chose, else the oldest verified.',
        querystring: paginationQuery,
        response: { 200: listEnvelope(domainSchema), ...errors },
      },
    },
    async (request) => paginate(request, (range) => domains.list(callerOf(request), range), ({ rows }) => rows.map(answer)),
  );

  // POST /v1/domains — add a custom domain (pending until verified)
  app.post(
    '/domains',
    {
      config,
      schema: {
        tags,
        summary: 'Add a custom domain',
        description:
          'Adds the name as `pending` with a fresh verification token: create the records it lists, then verify. 400 for a name ' +
          'that cannot be a custom domain (`details` names `hostname`) or past 20 domains; 409 `conflict` when this workspace ' +
          'already has it. Another workspace may have added the same name: only the one that verifies holds it.',
        body: addDomainBody,
        response: { 201: dataEnvelope(domainSchema), ...errors, 409: errorEnvelope },
      },
    },
    async (request, reply) => {
      const row = await domains.add(callerOf(request), request.body.hostname, actorOf(request));
      reply.code(201);
      return ok(request, answer(row));
    },
  );

  // GET /v1/domains/:id — one custom domain
  app.get(
    '/domains/:id',
    {
      config,
      schema: { tags, summary: 'Get a custom domain', params: domainParams, response: { 200: dataEnvelope(domainSchema), ...errors } },
    },
    async (request) => ok(request, answer(await domains.get(callerOf(request), request.params.id))),
  );

  // PATCH /v1/domains/:id — where the domain's root leads, and whether links use it
  app.patch(
    '/domains/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Update a custom domain',
        description:
          'Sets `root_url` (where a visitor who opens the domain itself, `/`, is sent with a 302 once the domain is verified) and/or, ' +
          'with `primary: true`, makes this domain the one the workspace’s links, hubs, embeds and unfurls use, from the next ' +
          'request on; the domain that had the role keeps serving the links opened on it. Give at least one field. 400 ' +
          '`invalid_request` (`details` names the field) for an address that is not http or https, for `primary: false` (choose ' +
          'the domain links should use instead) or for an empty body; 409 `conflict` for `primary: true` on a domain that is not ' +
          'verified (links cannot use a domain that serves nothing: verify it, then choose it). A refused request changes neither ' +
          'field. The same value again changes nothing. Audit: `domain.changed` with `changes.root_url` or `changes.primary` ' +
          '(`from`, `to`; choosing a domain records one entry for it and one for the domain links used before).',
        params: domainParams,
        body: updateDomainBody,
        response: { 200: dataEnvelope(domainSchema), ...errors, 409: errorEnvelope },
      },
    },
    async (request) =>
      ok(
        request,
        answer(
          await domains.update(
            callerOf(request),
            request.params.id,
            { rootUrl: request.body.root_url, primary: request.body.primary },
            actorOf(request),
          ),
        ),
      ),
  );

  // POST /v1/domains/:id/verify — look the records up now
  app.post(
    '/domains/:id/verify',
    {
      config,
      schema: {
        tags,
        summary: 'Verify a custom domain',
        description:
          'Looks up the TXT record, then the CNAME, now. 200 either way: `status` says whether it is verified and `last_error` ' +
          'what was found instead. A CNAME does not verify a name another workspace also claims (the TXT record does), and a ' +
          'TXT verification takes the name over from a workspace holding it by CNAME alone. 409 `conflict` when another ' +
          'workspace holds it verified by its TXT record.',
        params: domainParams,
        response: { 200: dataEnvelope(domainSchema), ...errors, 409: errorEnvelope },
      },
    },
    async (request) => ok(request, answer(await domains.verify(callerOf(request), request.params.id, actorOf(request)))),
  );

  // DELETE /v1/domains/:id — remove a custom domain
  app.delete(
    '/domains/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Remove a custom domain',
        description:
          'From the next request on the domain answers 404 and the proxy gets no new certificate for it. Links it was `primary` ' +
          'for move to the oldest verified domain left, else back to APP_URL.',
        params: domainParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await domains.remove(callerOf(request), request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );
}

/** The reverse proxy's question before it asks for a certificate (Caddy's on-demand TLS `ask`). */
export function tlsAskPage(app: ZodApp, ctx: ModuleContext<Services['domains']>) {
  // GET /tls/ask?domain= — 200 for a verified custom domain, 404 for any other name
  app.get('/tls/ask', { schema: { hide: true, querystring: tlsAskQuery } }, async (request, reply) => {
    const name = hostKey(request.query.domain);
    const owner = name ? await ctx.services.hosts.ownerOf(name) : undefined;
    reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8');
    return owner ? reply.code(200).send('ok\n') : reply.code(404).send('not a verified custom domain\n');
  });
}
