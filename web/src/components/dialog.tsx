import { type KeyboardEvent, type ReactNode, useEffect, useId, useLayoutEffect, useRef } from 'react';

export interface DialogProps {
  title: string;
  description?: ReactNode;
  onClose(): void;
  children?: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The inert page already keeps focus off the content behind, but from the last control the browser would
 * move on to its own toolbar; wrapping here keeps Tab and Shift+Tab cycling inside the dialog.
 */
function trapTab(event: KeyboardEvent<HTMLDialogElement>) {
  if (event.key !== 'Tab') return;
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null);
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * A modal dialog on the native <dialog> element: showModal() makes the rest of the page inert (so focus
 * cannot leave it) and turns Escape into a cancel event, which we route to onClose so React state stays
 * the single source of truth. Render it only while open; unmounting closes it and gives focus back.
 */
export function Dialog({ title, description, onClose, children, footer, size = 'md' }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useLayoutEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      if (dialog?.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Focus the first field rather than the close button, which is what the user came to fill in.
    const first =
      dialog.querySelector<HTMLElement>('[data-autofocus]') ??
      dialog.querySelector<HTMLElement>('input:not([type=hidden]):not([readonly]), select, textarea');
    first?.focus();
  }, []);

  return (
    <dialog
      ref={ref}
      className={`dialog dialog-${size}`}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onCloseRef.current();
      }}
      onKeyDown={trapTab}
    >
      <div className="dialog-header">
        <div className="dialog-titles">
          <h2 id={titleId}>{title}</h2>
          {description ? (
            <p id={descriptionId} className="dialog-description">
              {description}
            </p>
          ) : null}
        </div>
        <button type="button" className="icon-button" aria-label="Close dialog" onClick={() => onCloseRef.current()}>
          <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
            <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
          </svg>
        </button>
      </div>
      {children ? <div className="dialog-body">{children}</div> : null}
      {footer ? <div className="dialog-footer">{footer}</div> : null}
    </dialog>
  );
}
