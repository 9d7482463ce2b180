import type { ReactNode } from 'react';
import type { Permission } from '../api/types';
import { Alert } from '../components/alert';
import { useCan } from './use-can';

/**
 * A page only some roles may use, reached by its address: the explanation instead of the page, so that
 * nothing is requested only to be refused with a 403.
 */
export function RequirePermission({ permission, denied, children }: { permission: Permission; denied: string; children: ReactNode }) {
  return useCan()(permission) ? children : <Alert tone="info">{denied}</Alert>;
}
