import type { DemoDetail } from '../../api/types';

/** The Export dialog's "Written guide" section (being built: issue 30). */
export function ExportGuideSection({ demo: _demo }: { demo: DemoDetail }) {
  return null;
}
