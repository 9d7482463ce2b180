import { useEffect, useState } from 'react';
import type { ApiError } from '../../api/client';
import { fileSize, type OfflineBeacon, type OfflineInfo, offlineApi } from '../../api/offline.api';
import type { DemoDetail } from '../../api/types';
import { Alert } from '../../components/alert';
import { Checkbox } from '../../components/field';
import { Spinner } from '../../components/spinner';

/**
 * The Export dialog's "Offline HTML" section (docs/offline.md): one file that plays the published version
 * with no server. Its size is asked for (HEAD) before the download is offered; the beacon is opt-in.
 */
export function ExportOfflineSection({ demo }: { demo: DemoDetail }) {
  const [counting, setCounting] = useState(false);
  const [ask, setAsk] = useState(true);
  const beacon: OfflineBeacon = !counting ? 'off' : ask ? 'ask' : 'on';
  const [info, setInfo] = useState<OfflineInfo | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  useEffect(() => {
    let live = true;
    setInfo(null);
    setError(null);
    offlineApi.info(demo.id, beacon).then(
      (found) => live && setInfo(found),
      (err: ApiError) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, [demo.id, beacon]);

  return (
    <section className="stack" aria-labelledby="export-offline-title" style={{ gap: 'var(--space-3)' }}>
      <div>
        <h3 id="export-offline-title" style={{ margin: 0 }}>
          Offline HTML
        </h3>
        <p className="muted" style={{ margin: 0 }}>
          One file that plays the published version anywhere, with no connection: open it from a disk, attach it to an e-mail or put it on
          any static host. Pictures and page snapshots are inside; lead forms say they send nothing.
        </p>
      </div>
      <Checkbox
        label="Count views when the file is online"
        description="Sends viewing events to this Demoshare through one of the demo's share links without a password or identification. Off: the file never connects anywhere."
        checked={counting}
        onChange={(e) => setCounting(e.target.checked)}
      />
      {counting ? (
        <div className="checkbox-nested">
          <Checkbox
            label="Ask the viewer first"
            description="The file asks the person opening it before it sends or stores anything, and remembers the answer on their device. Turn off only if you have their consent another way."
            checked={ask}
            onChange={(e) => setAsk(e.target.checked)}
          />
        </div>
      ) : null}
      {error ? (
        <Alert tone={error.status === 409 ? 'warning' : 'danger'}>{error.message}</Alert>
      ) : (
        <div className="row" style={{ flexWrap: 'wrap' }}>
          {info ? (
            <a className="btn btn-primary" href={offlineApi.fileUrl(demo.id, beacon)} download aria-describedby="export-offline-size">
              Download offline file
            </a>
          ) : (
            <span className="row muted">
              <Spinner label="Measuring the file" /> Measuring the file…
            </span>
          )}
          {info ? (
            <span id="export-offline-size" className="muted">
              {fileSize(info.size)} · version {info.version}
            </span>
          ) : null}
        </div>
      )}
    </section>
  );
}
