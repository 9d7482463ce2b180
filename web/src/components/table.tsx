import type { ReactNode } from 'react';

export interface Column<T> {
  key: string;
  header: ReactNode;
  render(row: T): ReactNode;
  /** `actions` right-aligns the cell; `primary` and `grow` keep a readable minimum width. */
  kind?: 'actions' | 'grow' | 'nowrap' | 'primary';
}

/**
 * A data table. Below 720px each row becomes a card and every cell is prefixed by its column name
 * (from data-label), so wide tables stay readable on a phone without sideways scrolling.
 */
export function Table<T>({ columns, rows, rowKey, caption }: { columns: Column<T>[]; rows: T[]; rowKey(row: T): string; caption: string }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={c.kind ? `col-${c.kind}` : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.key} className={c.kind ? `col-${c.kind}` : undefined} data-label={typeof c.header === 'string' ? c.header : undefined}>
                  {c.render(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
