import { Alert } from '../../components/alert';
import { CopyField } from '../../components/copy-field';
import { LoadError } from '../../components/load-error';
import { PageHeader } from '../../components/page-header';
import { LoadingBlock } from '../../components/spinner';
import { useResource } from '../../lib/use-resource';
import { loadRecorderInfo, type RecorderInfo } from './recorder-info';
import '../../styles/recorder.css';

const kilobytes = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;

function InstallSteps({ info }: { info: RecorderInfo }) {
  return (
    <ol className="recorder-steps">
      <li>
        <a className="btn btn-primary" href={info.download_url} download>
          Download the recorder
        </a>{' '}
        <span className="muted">
          zip, {kilobytes(info.size)}, version {info.version}
        </span>
      </li>
      <li>Unzip it, and keep the folder where it is: the browser runs the extension from it.</li>
      <li>
        Open the extensions page. Pages cannot link to it: copy the address into a new tab (in Edge,{' '}
        <code>edge://extensions</code>; in Brave, <code>brave://extensions</code>).
        <div className="recorder-copy">
          <CopyField label="Extensions page (Chrome)" value="chrome://extensions" copyLabel="extensions page address" />
        </div>
      </li>
      <li>
        Turn on <strong>Developer mode</strong> (top right; in Edge, on the left).
      </li>
      <li>
        Choose <strong>Load unpacked</strong> and select the unzipped folder. <em>Demoshare Recorder</em> appears in the list.
      </li>
      <li>
        Click the puzzle piece in the toolbar and pin <em>Demoshare Recorder</em>. Click it and choose <strong>Connect</strong>: the
        address of this Demoshare, <code>{info.instance_url}</code>, is already filled in. Allow access on the page that opens.
      </li>
    </ol>
  );
}

/** How to get the recorder extension from this server, connect it and record, and how a team installs it. */
export function RecorderPage() {
  const info = useResource(loadRecorderInfo);
  return (
    <>
      <PageHeader
        title="Record with the browser extension"
        description="The Demoshare Recorder records your product as you click through it, signed in: each click becomes a step with its screenshot, and the demo opens in the editor when you stop."
      />
      <div className="recorder-page">
        <section className="card recorder-card" aria-labelledby="recorder-install">
          <h2 id="recorder-install">Install it in Chrome, Edge or Brave</h2>
          {info.status === 'loading' ? <LoadingBlock label="Loading…" /> : null}
          {info.status === 'error' ? <LoadError error={info.error} onRetry={info.reload} /> : null}
          {info.status === 'ready' && info.data ? <InstallSteps info={info.data} /> : null}
          {info.status === 'ready' && !info.data ? (
            <Alert tone="warning" title="This server has no recorder to hand out">
              Whoever runs this Demoshare has not built the extension. They can run <code>npm run build:extension</code> (
              <code>npm ci</code> does it) and restart the server.
            </Alert>
          ) : null}
        </section>

        <section className="card recorder-card" aria-labelledby="recorder-use">
          <h2 id="recorder-use">Record a demo</h2>
          <ol className="recorder-steps">
            <li>Open the page of your product to start from, signed in as you would show it.</li>
            <li>
              Click the extension, choose what to record into (a new demo, or the end of one) and <strong>Start recording this tab</strong>{' '}
              (or press <kbd>Alt</kbd>+<kbd>Shift</kbd>+<kbd>R</kbd>).
            </li>
            <li>Click through your product. Typing into a field is one step with its value; passwords and payment fields are never recorded.</li>
            <li>
              Choose <strong>Stop</strong> on the bar in the corner of the page: the recording is uploaded and opens in the editor.
            </li>
          </ol>
        </section>

        <section className="card recorder-card" aria-labelledby="recorder-team">
          <h2 id="recorder-team">For a whole team</h2>
          <p>
            Every browser can install the zip as above. Managed Chrome and Edge browsers install extensions for everyone only from a
            store, or from a signed package (<code>.crx</code>) with an update manifest that your administrator hosts: the steps are in
            the recorder documentation (<code>docs/recorder.md</code>, “For a team, by policy”).
          </p>
          {info.status === 'ready' && info.data ? (
            <p className="muted">
              The id of the recorder from this server: <code>{info.data.extension_id}</code>
            </p>
          ) : null}
        </section>
      </div>
    </>
  );
}
