import { useEffect, useState } from 'react';
import type { DemoDetail } from '../../api/types';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { LoadingBlock } from '../../components/spinner';
import type { HistoryEntry } from './use-history';
import '../../styles/flow-view.css';

export interface FlowViewProps {
  demo: DemoDetail;
  readOnly: boolean;
  /** The editor's history: every branch drawn or retargeted here is one entry, undone by the editor's Undo. */
  perform(entry: HistoryEntry): Promise<void>;
  /** Opens a step in the editor (a click on its node). */
  onOpenStep(stepId: string): void;
}

type Graph = typeof import('./flow-view-graph');
let loading: Promise<Graph> | undefined;
/** The graph's code is a chunk of its own, fetched the first time the flow is shown: the editor opens without it. */
const loadGraph = () => {
  loading ??= import('./flow-view-graph').catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
};

/** The editor's flow view: the story as a graph (flow-view-graph.tsx), loaded when first shown. */
export function FlowView(props: FlowViewProps) {
  const [graph, setGraph] = useState<Graph | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is what a Retry changes
  useEffect(() => {
    let live = true;
    setFailed(false);
    loadGraph().then(
      (module) => live && setGraph(module),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [attempt]);
  if (graph) return <graph.FlowGraph {...props} />;
  if (failed) {
    return (
      <div className="flow-view">
        <Alert tone="danger">
          The flow view could not be loaded (the network, or the app was updated since this page opened).{' '}
          <Button size="sm" onClick={() => setAttempt((a) => a + 1)}>
            Retry
          </Button>
        </Alert>
      </div>
    );
  }
  // Its class keeps it shown while the flow takes the stage (flow-view.css).
  return (
    <div className="flow-view">
      <LoadingBlock label="Drawing the flow…" />
    </div>
  );
}
