import type { ReactNode } from 'react';
import { Brand } from '../../layout/brand';

export function AuthLayout({ title, subtitle, children, footer }: { title: string; subtitle: ReactNode; children: ReactNode; footer: ReactNode }) {
  return (
    <div className="auth">
      <main className="auth-card">
        <div className="auth-brand">
          <Brand />
        </div>
        <div className="auth-heading">
          <h1>{title}</h1>
          <p className="muted">{subtitle}</p>
        </div>
        {children}
        <p className="auth-footer muted">{footer}</p>
      </main>
    </div>
  );
}

/** Where to go after signing in: only a path of this app, never another site (open redirect). */
export function safeNext(raw: string | null): string {
  return raw?.startsWith('/') && !raw.startsWith('//') && !raw.startsWith('/\\') ? raw : '/demos';
}
