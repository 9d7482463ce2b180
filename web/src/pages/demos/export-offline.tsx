import type { DemoDetail } from '../../api/types';

/** The Export dialog's "Offline HTML" section (being built: issue 30). */
export function ExportOfflineSection({ demo: _demo }: { demo: DemoDetail }) {
  return null;
}
