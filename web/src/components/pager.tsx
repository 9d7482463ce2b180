import type { ListMeta } from '../api/client';
import { Button } from './button';

/**
 * Previous/Next under a list. It names the page of the rows on screen (`meta`), not the page asked
 * for: a reload keeps the old rows until the new ones arrive, and a label that ran ahead of them
 * would say "Page 2" over page 1's rows. While another page is on its way the buttons wait, so a
 * double click cannot skip a page.
 */
export function Pager({
  meta,
  requested,
  onPage,
  noun,
  label = 'Pages',
  size,
}: {
  meta: ListMeta;
  /** The page asked for; when it differs from meta.page, that page is loading. */
  requested: number;
  onPage(page: number): void;
  /** Singular and plural for the count beside the page, such as ['entry', 'entries']; none hides it. */
  noun?: [string, string];
  label?: string;
  size?: 'sm';
}) {
  const pages = Math.max(1, Math.ceil(meta.total / meta.per_page));
  const loading = requested !== meta.page;
  return (
    <nav className="pagination" aria-label={label} aria-busy={loading}>
      <Button size={size} disabled={loading || meta.page <= 1} onClick={() => onPage(meta.page - 1)}>
        Previous
      </Button>
      <span className="muted">
        Page {meta.page} of {pages}
        {noun ? ` · ${meta.total} ${meta.total === 1 ? noun[0] : noun[1]}` : null}
      </span>
      <Button size={size} disabled={loading || meta.page >= pages} onClick={() => onPage(meta.page + 1)}>
        Next
      </Button>
    </nav>
  );
}
