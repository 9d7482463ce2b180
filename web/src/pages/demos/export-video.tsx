import type { DemoDetail } from '../../api/types';

/** The Export dialog's "Video" section (being built: issue 30). */
export function ExportVideoSection({ demo: _demo }: { demo: DemoDetail }) {
  return null;
}
