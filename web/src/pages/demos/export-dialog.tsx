import type { DemoDetail } from '../../api/types';
import { Dialog } from '../../components/dialog';
import { ExportDemoFileSection } from './export-demo-file';
import { ExportGuideSection } from './export-guide';
import { ExportOfflineSection } from './export-offline';
import { ExportVideoSection } from './export-video';
import '../../styles/export-dialog.css';

/**
 * Every way a demo leaves the instance, in one dialog (the editor's More → Export): the demo file (git,
 * another instance), an offline HTML file, a written guide, a video. Each section lives in its own file.
 */
export function ExportDialog({ demo, onClose }: { demo: DemoDetail; onClose(): void }) {
  return (
    <Dialog title="Export" description="Take this demo out of Demoshare: as a file, offline, as a guide or as a video." onClose={onClose} size="lg">
      <div className="export-sections">
        <ExportDemoFileSection demo={demo} />
        <ExportOfflineSection demo={demo} />
        <ExportGuideSection demo={demo} />
        <ExportVideoSection demo={demo} />
      </div>
    </Dialog>
  );
}
