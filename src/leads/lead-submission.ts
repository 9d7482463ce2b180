// POST /v1/viewer/:token/leads: a viewer's lead form into a lead, past the same gates as their events; a
// gate form passes the identification gate as /identify does.
import { tags } from '../core/changes';
import { AppError } from '../core/errors';
import { newId } from '../core/ids';
import { emitEvent } from '../events/outbox';
import { isAllowed, gateError, type Visitor } from '../viewing/viewer-gates.resolve';
import { emailFieldOf, gateFormOf } from '../viewing/viewer-gates.form';
import { checkValues } from './lead-values';
import type { LeadsContext } from './leads-context';
import * as repo from './leads.repo';
import type { LeadValue } from './leads.tables';

export interface LeadSubmission {
  id: string;
  step_number: number;
  values: Record<string, LeadValue>;
}

export interface LeadReceipt {
  id: string;
  identified: boolean;
  gate: 'password' | 'identification' | 'ready';
  session_token?: string;
}

/**
 * Stores one submission of a lead form, in the published version's terms. The gates run first, as for
 * events (unknown, expired, unpublished link; password), except that at the identification gate the link's
 * gate form is accepted (and only it). Then: a retry of an id this session already sent answers the same
 * lead (`created: false`); each bad field is a 422 naming `values.<name>`; at a gate, an address the
 * allow-lists refuse is a 403 on the e-mail field. In one transaction: the lead, who the viewer is (when the
 * address is allowed), `lead.captured` and the members' notice.
 *
 * @example
 * const { receipt, created } = await submitLead(ctx, token, sessionToken, visitor, { id, step_number: 3, values });
 */
export async function submitLead(
  ctx: LeadsContext,
  token: string,
  sessionToken: string | undefined,
  visitor: Visitor,
  body: LeadSubmission,
): Promise<{ receipt: LeadReceipt; created: boolean }> {
  const { viewer } = ctx;
  const { link, session, gate } = await viewer.resolve(token, sessionToken, visitor);
  const { share } = link;
  const identity = { email: session?.viewerEmail, name: session?.viewerName };
  if (gate === 'password') {
    await viewer.recordDecision(share, 'password_required', visitor, identity);
    throw gateError('password', 'unauthorized', 'This link needs its password: POST /v1/viewer/:token/unlock');
  }
  const forms = await viewer.forms(link);
  const atGate = gate === 'identification';
  if (atGate && gateFormOf(forms)?.stepNumber !== body.step_number) {
    await viewer.recordDecision(share, 'identification_required', visitor, identity);
    throw gateError('identification', 'forbidden', 'Identify first: POST /v1/viewer/:token/identify, or send the link’s gate form');
  }
  if (!atGate && !session) throw gateError('session', 'unauthorized', 'No viewer session: call GET /v1/viewer/:token first');

  if (session) {
    const earlier = await repo.findByClient(ctx.db, session.id, body.id);
    if (earlier) return { receipt: { id: earlier.id, identified: earlier.identified, gate }, created: false };
  }
  // A retry whose first answer (and the session in it) never arrived comes back in another session.
  const resent = await repo.findByDemoClient(ctx.db, share.demoId, body.id);
  const step = forms.get(body.step_number);
  if (!step) {
    throw new AppError('validation_error', `Step ${body.step_number} of this demo is not a form`, {
      details: [{ field: 'step_number', message: 'must be a form step of the published demo' }],
    });
  }
  const checked = checkValues(step.form, body.values, atGate);
  if (checked.problems.length > 0) {
    throw new AppError('validation_error', 'Some fields of the form are not valid', { details: checked.problems });
  }
  const { email, name, values } = checked;
  const allowed = email !== null && isAllowed(share, email);
  if (atGate && !allowed) {
    await viewer.recordDecision(share, 'not_allowed', visitor, { email, name });
    throw new AppError('forbidden', 'This e-mail address is not allowed to view this demo: ask the person who shared it for access', {
      details: [
        { field: 'gate', message: 'identification' },
        { field: `values.${emailFieldOf(step.form)!.name}`, message: 'This address is not allowed to view this demo' },
      ],
    });
  }

  if (resent) return resend(ctx, { link, session, visitor, gate, atGate }, resent, { email, name, values, stepNumber: step.stepNumber });

  const { session: current, issued } = await viewer.ensureSession(share, session, visitor);
  const identifies = email !== null && allowed;
  const now = ctx.clock.now();
  const stored = await ctx.db.transaction(async (tx) => {
    const viewId = (await viewer.viewOfSession(tx, current.id)) ?? null;
    const lead = await repo.insertLead(tx, {
      id: newId('lead', now.getTime()),
      workspaceId: share.workspaceId,
      demoId: share.demoId,
      shareId: share.id,
      sessionId: current.id,
      viewId,
      version: link.version,
      stepNumber: step.stepNumber,
      stepId: step.stepId,
      clientId: body.id.toLowerCase(),
      email,
      name,
      values,
      identified: identifies,
      createdAt: now,
    });
    // The same id from the same session, at the same moment (a double click racing itself): one lead.
    if (!lead) return { lead: (await repo.findByClient(tx, current.id, body.id))!, created: false };
    if (identifies) await viewer.identifyByLead(tx, share, current.id, { email, name });
    await emitEvent(tx, ctx.clock, {
      workspaceId: share.workspaceId,
      kind: 'lead.captured',
      data: {
        lead_id: lead.id,
        demo_id: share.demoId,
        share_id: share.id,
        view_id: viewId,
        step_number: step.stepNumber,
        email,
        name,
        values,
        created_at: now.toISOString(),
      },
    });
    await ctx.notifications.leadCaptured(tx, {
      workspaceId: share.workspaceId,
      demoId: share.demoId,
      shareId: share.id,
      leadId: lead.id,
      email,
      name,
      values,
      at: now.toISOString(),
    });
    return { lead, created: true };
  });
  if (stored.created && identifies) {
    await ctx.changes.announce(tags.session(current.id));
    await viewer.recordDecision(share, 'identified', visitor, { email, name });
  }
  const after = stored.lead.identified && atGate ? 'ready' : gate;
  return {
    receipt: { id: stored.lead.id, identified: stored.lead.identified, gate: after, ...(issued ? { session_token: issued } : {}) },
    created: stored.created,
  };
}

type Resolved = Awaited<ReturnType<LeadsContext['viewer']['resolve']>>;

const sameValues = (a: Record<string, LeadValue>, b: Record<string, LeadValue>) =>
  JSON.stringify(Object.entries(a).sort(([x], [y]) => (x < y ? -1 : 1))) === JSON.stringify(Object.entries(b).sort(([x], [y]) => (x < y ? -1 : 1)));

/**
 * A submission sent again from a session that did not make it: the lead stays the one already stored (no
 * second lead, event or e-mail). The new session passes the gate as the first one did, so the viewer who
 * lost the first answer goes on. The same id with other values is not a retry: a 409.
 */
async function resend(
  ctx: LeadsContext,
  at: {
    link: Resolved['link'];
    session: Resolved['session'];
    visitor: Visitor;
    gate: LeadReceipt['gate'];
    atGate: boolean;
  },
  lead: NonNullable<Awaited<ReturnType<typeof repo.findByDemoClient>>>,
  sent: { email: string | null; name: string | null; values: Record<string, LeadValue>; stepNumber: number },
): Promise<{ receipt: LeadReceipt; created: boolean }> {
  if (lead.stepNumber !== sent.stepNumber || !sameValues(lead.values, sent.values)) {
    throw new AppError('conflict', 'This submission id was already sent with other values: make a new id for a new submission', {
      details: [{ field: 'id', message: 'already used for another submission' }],
    });
  }
  const { share } = at.link;
  const { session: current, issued } = await ctx.viewer.ensureSession(share, at.session, at.visitor);
  if (lead.identified && sent.email !== null) {
    const identity = { email: sent.email, name: sent.name };
    await ctx.db.transaction((tx) => ctx.viewer.identifyByLead(tx, share, current.id, identity));
    await ctx.changes.announce(tags.session(current.id));
  }
  const gate = lead.identified && at.atGate ? 'ready' : at.gate;
  return { receipt: { id: lead.id, identified: lead.identified, gate, ...(issued ? { session_token: issued } : {}) }, created: false };
}
