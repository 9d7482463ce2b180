import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';

export type ToastTone = 'success' | 'danger' | 'info';
interface ToastAction {
  label: string;
  onAction(): void;
}
export interface ToastOptions {
  /** One button in the toast (e.g. Undo); pressing it closes the toast. */
  action?: ToastAction;
  lifetimeMs?: number;
  /** Called when the toast goes away without its action being pressed. */
  onExpire?(): void;
}
interface ToastItem {
  id: number;
  tone: ToastTone;
  message: string;
  action?: ToastAction;
}

type Notify = (message: string, tone?: ToastTone, options?: ToastOptions) => void;
const ToastContext = createContext<Notify>(() => {});

const LIFETIME_MS = 5000;

/** Short confirmations ("Key revoked") in a polite live region, so screen readers announce them too. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const next = useRef(1);

  const dismiss = useCallback((id: number) => setItems((all) => all.filter((t) => t.id !== id)), []);
  const notify = useCallback<Notify>(
    (message, tone = 'success', options = {}) => {
      const id = next.current++;
      let settled = false;
      const settle = (acted: boolean) => {
        if (settled) return;
        settled = true;
        dismiss(id);
        if (acted) options.action?.onAction();
        else options.onExpire?.();
      };
      const action = options.action ? { label: options.action.label, onAction: () => settle(true) } : undefined;
      setItems((all) => [...all.slice(-2), { id, tone, message, action }]);
      setTimeout(() => settle(false), options.lifetimeMs ?? LIFETIME_MS);
    },
    [dismiss],
  );
  const value = useMemo(() => notify, [notify]);

  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" aria-live="polite" aria-atomic="false">
        {items.map((t) => (
          <div key={t.id} className={`toast toast-${t.tone}`} role={t.tone === 'danger' ? 'alert' : 'status'}>
            <span>{t.message}</span>
            {t.action ? (
              <button type="button" className="toast-action" onClick={t.action.onAction}>
                {t.action.label}
              </button>
            ) : null}
            <button type="button" className="icon-button" aria-label="Dismiss notification" onClick={() => dismiss(t.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);
