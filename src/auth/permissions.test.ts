import { describe, expect, it } from 'vitest';
import { permissionsOf, SCOPES } from './permissions';

describe('permissionsOf', () => {
  it('gives a key only what both its scopes and its role allow, and never a session-only permission', () => {
    expect(permissionsOf('editor', 'api_key', ['demos:read', 'demos:write', 'team:write'])).toEqual(['demos.read', 'demos.write']);
    expect(permissionsOf('admin', 'oauth', SCOPES)).toEqual([
      'demos.read',
      'demos.write',
      'demos.delete',
      'viewers.erase',
      'analytics.read',
      'leads.read',
      'shares.read',
      'shares.write',
      'team.read',
      'team.write',
      'webhooks.manage',
      'oauth_apps.manage',
      'audit.read',
    ]);
    expect(permissionsOf('viewer', 'api_key', [])).toEqual([]);
    // audit:read is an admin's: an editor's or viewer's credential carrying it reads no log.
    expect(permissionsOf('editor', 'api_key', ['audit:read'])).toEqual([]);
    expect(permissionsOf('viewer', 'oauth', ['audit:read'])).toEqual([]);
  });

  it('gives a session its role’s session-only permissions', () => {
    expect(permissionsOf('viewer', 'session', SCOPES)).toEqual(['demos.read', 'analytics.read', 'leads.read', 'shares.read', 'team.read', 'keys.manage', 'oauth_grants.manage', 'account.read', 'workspace.read']);
    expect(permissionsOf('admin', 'session', SCOPES)).toContain('keys.manage_all');
    expect(permissionsOf('editor', 'session', SCOPES)).not.toContain('oauth_apps.manage');
  });
});
