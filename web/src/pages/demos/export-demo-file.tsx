import type { DemoDetail } from '../../api/types';

/** The Export dialog's "Demo file" section (being built: issue 30). */
export function ExportDemoFileSection({ demo: _demo }: { demo: DemoDetail }) {
  return null;
}
