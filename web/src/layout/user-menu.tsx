import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { authApi } from '../api/auth.api';
import { ApiError } from '../api/client';
import { Badge } from '../components/badge';
import { ChevronIcon, LogOutIcon, SettingsIcon, UserIcon } from '../components/icons';
import { useToast } from '../components/toast';
import { initials } from '../lib/format';
import { ROLE_LABELS } from '../lib/roles';
import { useSession, useSessionState } from '../session/session-context';

/** The account button at the foot of the sidebar: who you are, in which workspace, with which role. */
export function UserMenu() {
  const session = useSession();
  const { signOut, signedIn } = useSessionState();
  const notify = useToast();
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const displayName = session.user.name || session.user.email;

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        // Handled here so the Escape does not also close the mobile drawer around the menu.
        event.stopPropagation();
        setOpen(false);
        trigger.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    root.current?.addEventListener('keydown', onKey);
    const node = root.current;
    root.current?.querySelector<HTMLElement>('.menu a, .menu button')?.focus();
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      node?.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const others = session.workspaces.filter((w) => w.id !== session.workspace.id);

  async function switchTo(workspaceId: string, name: string) {
    try {
      signedIn(await authApi.switchWorkspace(workspaceId));
      setOpen(false);
      notify(`Switched to ${name}`);
    } catch (err) {
      notify(err instanceof ApiError ? err.message : 'Could not switch workspace.', 'danger');
    }
  }

  async function logout() {
    setSigningOut(true);
    // Signing out flips the session state, and the signed-in layout then sends us to /login.
    await signOut().catch(() => {});
  }

  return (
    <div className="user-menu" ref={root}>
      {open ? (
        <div className="menu" id={menuId}>
          <div className="menu-section">
            <p className="menu-label">Signed in as</p>
            <p className="menu-strong">{session.user.email}</p>
          </div>
          <div className="menu-section">
            <p className="menu-label">Workspace</p>
            <p className="menu-strong row">
              <span className="truncate">{session.workspace.name}</span>
              <Badge tone="accent">{ROLE_LABELS[session.workspace.role]}</Badge>
            </p>
          </div>
          {others.length > 0 ? (
            <div className="menu-section">
              <p className="menu-label">Switch to</p>
              {others.map((w) => (
                <button key={w.id} type="button" className="menu-item" onClick={() => switchTo(w.id, w.name)}>
                  <span className="truncate">{w.name}</span>
                  <span className="menu-item-meta">{ROLE_LABELS[w.role]}</span>
                </button>
              ))}
            </div>
          ) : null}
          <div className="menu-items">
            <Link to="/account" className="menu-item" onClick={() => setOpen(false)}>
              <UserIcon /> Your account
            </Link>
            <Link to="/settings/workspace" className="menu-item" onClick={() => setOpen(false)}>
              <SettingsIcon /> Workspace settings
            </Link>
            <button type="button" className="menu-item" onClick={logout} disabled={signingOut}>
              <LogOutIcon /> {signingOut ? 'Signing out…' : 'Sign out'}
            </button>
          </div>
        </div>
      ) : null}
      <button
        ref={trigger}
        type="button"
        className="user-button"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="avatar" aria-hidden="true">
          {initials(displayName)}
        </span>
        <span className="user-button-text">
          <span className="user-button-name truncate">{displayName}</span>
          <span className="user-button-meta truncate">
            {ROLE_LABELS[session.workspace.role]} · {session.workspace.name}
          </span>
        </span>
        <ChevronIcon />
      </button>
    </div>
  );
}
