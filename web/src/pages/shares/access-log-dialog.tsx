import { useState } from 'react';
import { ApiError } from '../../api/client';
import { type AccessLogEntry, linkName, type Share, sharesApi } from '../../api/shares.api';
import { Alert } from '../../components/alert';
import { Badge, type BadgeTone } from '../../components/badge';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { LoadError } from '../../components/load-error';
import { type Column, Table } from '../../components/table';
import { formatDateTime } from '../../lib/format';
import { useResource } from '../../lib/use-resource';

// Every gate decision the server records (src/shares/link-viewers.ts ACCESS_DECISIONS), in words.
const DECISIONS: Record<string, { label: string; tone: BadgeTone }> = {
  granted: { label: 'Opened', tone: 'success' },
  unlocked: { label: 'Password accepted', tone: 'success' },
  identified: { label: 'Identified', tone: 'success' },
  wrong_password: { label: 'Wrong password', tone: 'danger' },
  blocked: { label: 'Blocked: too many attempts', tone: 'danger' },
  expired: { label: 'Link expired', tone: 'warning' },
  revoked: { label: 'Link revoked', tone: 'warning' },
  not_allowed: { label: 'E-mail not allowed', tone: 'danger' },
  not_published: { label: 'Demo not published', tone: 'warning' },
  password_required: { label: 'Asked for password', tone: 'neutral' },
  identification_required: { label: 'Asked to identify', tone: 'neutral' },
};

/** A short browser name from a user agent, enough to tell visitors apart. */
function browserOf(ua: string | null): string {
  if (!ua) return '—';
  const match = /(Edg|OPR|Firefox|Chrome|Safari)\/[\d.]+/.exec(ua);
  const os = /Windows|Mac OS X|Android|iPhone|iPad|Linux/.exec(ua)?.[0]?.replace('Mac OS X', 'macOS') ?? '';
  const name = match ? ({ Edg: 'Edge', OPR: 'Opera' } as Record<string, string>)[match[1]!] ?? match[1]! : 'Other';
  return os ? `${name} on ${os}` : name;
}

const columns: Column<AccessLogEntry>[] = [
  { key: 'at', header: 'When', kind: 'nowrap', render: (e) => formatDateTime(e.at) },
  {
    key: 'decision',
    header: 'What happened',
    render: (e) => {
      const d = DECISIONS[e.decision] ?? { label: e.decision, tone: 'neutral' as const };
      return <Badge tone={d.tone}>{d.label}</Badge>;
    },
  },
  {
    key: 'viewer',
    header: 'Viewer',
    kind: 'grow',
    render: (e) =>
      e.viewer_email ? (
        <span className="cell-stack">
          <span className="cell-strong">{e.viewer_name ?? e.viewer_email}</span>
          {e.viewer_name ? <span className="cell-sub">{e.viewer_email}</span> : null}
        </span>
      ) : (
        <span className="cell-sub">Anonymous</span>
      ),
  },
  {
    key: 'from',
    header: 'From',
    render: (e) => (
      <span className="cell-stack">
        <span>{browserOf(e.user_agent)}</span>
        <span className="cell-sub mono">{e.ip ?? '—'}</span>
      </span>
    ),
  },
];

/** Who knocked on one link and what the gates answered, newest first, 50 at a time. */
export function AccessLogDialog({ share, onClose }: { share: Share; onClose(): void }) {
  const [pages, setPages] = useState(1);
  const [more, setMore] = useState<{ rows: AccessLogEntry[]; busy: boolean; error: string | null }>({ rows: [], busy: false, error: null });
  const first = useResource(() => sharesApi.accessLog(share.id, 1));

  async function loadMore() {
    setMore((m) => ({ ...m, busy: true, error: null }));
    try {
      const next = await sharesApi.accessLog(share.id, pages + 1);
      setPages(pages + 1);
      setMore((m) => ({ rows: [...m.rows, ...next.rows], busy: false, error: null }));
    } catch (err) {
      setMore((m) => ({ ...m, busy: false, error: err instanceof ApiError ? err.message : 'Could not load more.' }));
    }
  }

  const rows = first.status === 'ready' ? [...first.data.rows, ...more.rows] : [];
  const total = first.status === 'ready' ? first.data.meta.total : 0;
  return (
    <Dialog
      title={`Access log: ${linkName(share)}`}
      description="Every time someone opened this link, and what the password and identification gates answered."
      size="lg"
      onClose={onClose}
      footer={<Button onClick={onClose}>Close</Button>}
    >
      {first.status === 'loading' ? <p className="field-hint">Loading the access log…</p> : null}
      {first.status === 'error' ? <LoadError error={first.error} onRetry={first.reload} /> : null}
      {first.status === 'ready' && rows.length === 0 ? <p className="field-hint">Nobody has opened this link yet.</p> : null}
      {rows.length > 0 ? (
        <div className="stack">
          <Table columns={columns} rows={rows} rowKey={(e) => `${e.at}-${rows.indexOf(e)}`} caption={`Access log of ${linkName(share)}`} />
          {more.error ? <Alert tone="danger">{more.error}</Alert> : null}
          {rows.length < total ? (
            <div className="row row-end">
              <Button size="sm" loading={more.busy} onClick={loadMore}>
                Show older entries
              </Button>
            </div>
          ) : null}
        </div>
      ) : null}
    </Dialog>
  );
}
