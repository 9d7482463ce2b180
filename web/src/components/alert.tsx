import type { ReactNode } from 'react';

export function Alert({
  tone = 'info',
  title,
  children,
}: {
  tone?: 'info' | 'warning' | 'danger' | 'success';
  title?: string;
  children: ReactNode;
}) {
  // Errors interrupt a screen reader; the other tones are read when reached.
  return (
    <div className={`alert alert-${tone}`} role={tone === 'danger' ? 'alert' : undefined}>
      {title ? <p className="alert-title">{title}</p> : null}
      <div>{children}</div>
    </div>
  );
}
