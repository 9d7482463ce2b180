import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Button } from '../../components/button';

/** One entry of the "More" menu; `danger` is drawn in red (Delete). */
export interface MenuAction {
  label: string;
  onSelect(): void;
  danger?: boolean;
}

/**
 * The header's secondary actions behind one "More" button, so the header stays on one line at 1280 px.
 * Escape or a click elsewhere closes it; arrow keys move between the entries.
 */
export function EditorMenu({
  actions,
  label = 'More',
  menuLabel = 'More actions',
  align = 'end',
}: {
  actions: MenuAction[];
  label?: ReactNode;
  menuLabel?: string;
  /** Which edge of the button the list lines up with: the end (right) for the header, the start in a left column. */
  align?: 'start' | 'end';
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    root.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);
  if (actions.length === 0) return null;
  const onKeyDown = (event: React.KeyboardEvent) => {
    const items = [...(root.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') {
      setOpen(false);
      root.current?.querySelector<HTMLButtonElement>('[aria-haspopup]')?.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      items[(at + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
    }
  };
  return (
    <div className="editor-menu" ref={root}>
      <Button aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)} onKeyDown={onKeyDown}>
        {label} ▾
      </Button>
      {open ? (
        <div className={`editor-menu-list${align === 'start' ? ' editor-menu-start' : ''}`} role="menu" aria-label={menuLabel} onKeyDown={onKeyDown}>
          {actions.map((a) => (
            <button
              key={a.label}
              type="button"
              role="menuitem"
              className={`editor-menu-item${a.danger ? ' editor-menu-danger' : ''}`}
              onClick={() => {
                setOpen(false);
                a.onSelect();
              }}
            >
              {a.label}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
