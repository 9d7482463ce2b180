import { z } from 'zod';
import { idSchema } from '../core/ids';
import { cursorListEnvelope, cursorPaginationQuery } from '../core/pagination';
import { text } from '../core/text';
import { DATE_FILTER_RANGE_TEXT, dateFilter, iso, resolveDateRange, timestamp } from '../core/time';
import { ACTOR_TYPES, AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from './audit-actions';
import type { AuditFilters, AuditRow } from './audit.repo';

const anyId = text()
  .regex(/^[a-z]+_[0-9a-z]{26}$/, 'must be an id such as usr_01jd3k7q9x8v2m4n6p0r5s7t9w')
  .meta({ example: 'usr_01jd3k7q9x8v2m4n6p0r5s7t9w' });

const filters = {
  actor: anyId.optional().meta({
    description: 'A user, API key or OAuth app id. A user id also matches what their keys and authorised apps did.',
  }),
  action: z
    .enum(AUDIT_ACTIONS, { error: (issue) => `unknown action ${JSON.stringify(issue.input)}; valid: ${AUDIT_ACTIONS.join(', ')}` })
    .optional()
    .meta({ description: 'Only this action.' }),
  target: anyId.optional().meta({ description: 'Only entries about this record (member, key, demo, share, ...).' }),
  start_date: dateFilter.optional().meta({ description: `YYYY-MM-DD (inclusive, UTC) or an ISO timestamp. ${DATE_FILTER_RANGE_TEXT}` }),
  end_date: dateFilter.optional().meta({ description: `YYYY-MM-DD (inclusive, UTC) or an ISO timestamp. ${DATE_FILTER_RANGE_TEXT}` }),
};

/** `after=start`: the feed from the oldest entry the log keeps. */
export const FEED_START = 'start';

const after = z
  .union([z.literal(FEED_START), idSchema('auditEntry')])
  .optional()
  .meta({
    description:
      'Pulls the log as a feed instead of pages: the entries after this entry id (or from the oldest kept, for `start`), ' +
      'oldest first, `per_page` at most, with the id to send next in `meta.next`. Polling with it never skips nor repeats ' +
      'an entry (docs/audit-log.md, "Pulling into a SIEM"). Not with `page`.',
    example: 'aud_01jd3k7q9x8v2m4n6p0r5s7t9w',
  });

export const listAuditQuery = cursorPaginationQuery.extend({ ...filters, after }).strict();
export const exportAuditQuery = z.object(filters).strict();

type FilterQuery = { [K in keyof typeof filters]?: z.infer<(typeof filters)[K]> };

/** The query's filters for the service; a date out of range or an inverted range is a 400 that names the field. */
export function toAuditFilters(q: FilterQuery): AuditFilters {
  const { from, to } = resolveDateRange(q.start_date, q.end_date);
  return { actor: q.actor, action: q.action, target: q.target, from, to };
}

export const auditEntrySchema = z
  .object({
    id: z.string().meta({ example: 'aud_01jd3k7q9x8v2m4n6p0r5s7t9w' }),
    action: z.enum(AUDIT_ACTIONS),
    actor: z.object({
      type: z.enum(ACTOR_TYPES),
      id: z.string().nullable().meta({ description: 'User, API key or OAuth app id; null for the system.' }),
      user_id: z.string().nullable().meta({ description: 'The person acting, directly or through a key or app.' }),
      label: z.string().meta({ description: 'E-mail, key name or app name when the entry was written.' }),
    }),
    target: z.object({
      type: z.enum(AUDIT_TARGET_TYPES),
      id: z.string().nullable(),
      label: z.string().nullable().meta({ description: 'A readable name of the target when the entry was written.' }),
    }),
    changes: z.record(z.string(), z.unknown()).meta({
      description: 'What changed, briefly (field names, old and new values). Never a secret, token or hash.',
    }),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    created_at: timestamp,
  })
  .meta({
    id: 'AuditEntry',
    examples: [
      {
        id: 'aud_01jd3k7q9x8v2m4n6p0r5s7t9w',
        action: 'member.role_changed',
        actor: { type: 'user', id: 'usr_01jd3k7q9x8v2m4n6p0r5s7t9w', user_id: 'usr_01jd3k7q9x8v2m4n6p0r5s7t9w', label: 'ada@example.com' },
        target: { type: 'member', id: 'mem_01jd3m0a2c4e6g8j0k2m4n6p8q', label: 'grace@acme.com' },
        changes: { role: { from: 'editor', to: 'viewer' } },
        ip: '203.0.113.24',
        user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
        created_at: '2026-11-25T09:30:00.000Z',
      },
    ],
  });

export function toAuditEntry(row: AuditRow): z.infer<typeof auditEntrySchema> {
  return {
    id: row.id,
    action: row.action as z.infer<typeof auditEntrySchema>['action'],
    actor: {
      type: row.actorType as z.infer<typeof auditEntrySchema>['actor']['type'],
      id: row.actorId,
      user_id: row.actorUserId,
      label: row.actorLabel,
    },
    target: {
      type: row.targetType as z.infer<typeof auditEntrySchema>['target']['type'],
      id: row.targetId,
      label: row.targetLabel,
    },
    changes: row.changes,
    ip: row.ip,
    user_agent: row.userAgent,
    created_at: iso(row.createdAt),
  };
}

export const CSV_HEADER = [
  'created_at',
  'action',
  'actor_type',
  'actor_id',
  'actor_label',
  'target_type',
  'target_id',
  'target_label',
  'changes',
  'ip',
  'user_agent',
  'id',
] as const;

export function toCsvCells(row: AuditRow): unknown[] {
  return [
    row.createdAt,
    row.action,
    row.actorType,
    row.actorId,
    row.actorLabel,
    row.targetType,
    row.targetId,
    row.targetLabel,
    row.changes,
    row.ip,
    row.userAgent,
    row.id,
  ];
}

/** The list's envelope, with `next_cursor` for the next page, and in feed mode (`after`) `next` to poll with. */
const auditList = cursorListEnvelope(auditEntrySchema);
export const auditListEnvelope = auditList.extend({
  meta: auditList.shape.meta.extend({
    next: z.string().optional().meta({
      description: 'With `after` only: the `after` of the next poll, the last entry of this page, or the `after` sent when nothing new is ready.',
      example: 'aud_01jd3k7q9x8v2m4n6p0r5s7t9w',
    }),
  }),
});
