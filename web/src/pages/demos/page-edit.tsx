import { type ChangeEvent, type MouseEvent as ReactMouseEvent, useEffect, useRef, useState } from 'react';
import type { Step } from '../../api/types';
import { Button } from '../../components/button';
import { useToast } from '../../components/toast';
import { describeElement, pickableElements, selectorFor } from './element-selector';
import { describePatch, imageElement, isTextElement, type PagePatch, pageEditApi, patchesOf, withPatch } from './page-edit-model';
import { SNAPSHOT_SIZE, SnapshotFrame } from './snapshot-frame';
import type { HistoryEntry } from './use-history';
import '../../styles/page-edit.css';

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

interface Picked {
  selector: string;
  label: string;
  box: Box;
  text: string | null;
  image: boolean;
}

/** Where `el` of the frame's document shows on the stage, in the stage's pixels. */
function boxOf(el: Element, scale: number): Box {
  const r = el.getBoundingClientRect();
  return { left: r.left * scale, top: r.top * scale, width: r.width * scale, height: r.height * scale };
}

const px = (box: Box) => ({ left: box.left, top: box.top, width: box.width, height: box.height });

/**
 * "Edit page": the step's HTML snapshot as the player shows it (served with its patches), where a click
 * picks an element: its text is edited in place, or it is hidden, or its image replaced by an upload. Each
 * change saves the step's whole list of patches through the editor's history (`perform`), so Undo takes it
 * back. The page the editor shows is the server's patched page, the same one viewers get.
 */
export function PageEditor({
  demoId,
  step,
  perform,
  onClose,
}: {
  demoId: string;
  step: Step;
  /** The editor's history (use-history.ts): runs the change and records it for Undo. */
  perform(entry: HistoryEntry): Promise<void>;
  onClose(): void;
}) {
  const notify = useToast();
  const width = step.width ?? SNAPSHOT_SIZE.width;
  const height = step.height ?? SNAPSHOT_SIZE.height;
  const stage = useRef<HTMLDivElement>(null);
  const upload = useRef<HTMLInputElement>(null);
  const [frame, setFrame] = useState<HTMLIFrameElement | null>(null);
  const [hover, setHover] = useState<Box | null>(null);
  const [picked, setPicked] = useState<Picked | null>(null);
  const [draft, setDraft] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const patches = patchesOf(step);

  const scale = () => (stage.current ? stage.current.getBoundingClientRect().width / width : 1);

  const elementAt = (event: ReactMouseEvent): Element | null => {
    const doc = frame?.contentDocument;
    if (!doc || !stage.current) return null;
    const rect = stage.current.getBoundingClientRect();
    const s = rect.width / width;
    const el = doc.elementFromPoint((event.clientX - rect.left) / s, (event.clientY - rect.top) / s);
    return el && el !== doc.body && el !== doc.documentElement ? el : null;
  };

  const pick = (el: Element): Picked => ({
    selector: selectorFor(el),
    label: describeElement(el),
    box: boxOf(el, scale()),
    text: isTextElement(el) ? (el.textContent ?? '').replace(/\s+/g, ' ').trim() : null,
    image: imageElement(el) !== null,
  });

  // A new document (the patches changed): the picked element is found again by its selector, or let go.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the frame stands for its document
  useEffect(() => {
    setHover(null);
    if (!frame || !picked) return;
    const el = frame.contentDocument?.querySelector(picked.selector);
    const box = el ? boxOf(el, scale()) : null;
    setPicked(el && box && box.width > 0 ? { ...pick(el), selector: picked.selector } : null);
  }, [frame]);

  // A save, not an action: the editor's save indicator reports it (and a refusal), no toast.
  const save = async (next: PagePatch[]) => {
    const before = patches;
    setDraft(null);
    await perform({
      redo: () => pageEditApi.savePatches(demoId, step.id, next),
      undo: () => pageEditApi.savePatches(demoId, step.id, before),
    });
  };

  const saveText = () => {
    if (!picked || draft === null) return;
    if (draft === picked.text) return setDraft(null);
    void save(withPatch(patches, { selector: picked.selector, op: 'text', value: draft }));
  };

  const replaceImage = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || !picked) return;
    setUploading(true);
    try {
      const image = await pageEditApi.uploadImage(demoId, file);
      await save(withPatch(patches, { selector: picked.selector, op: 'image', value: image.id }));
    } catch (error) {
      notify(error instanceof Error ? error.message : 'The image could not be uploaded', 'danger');
    } finally {
      setUploading(false);
    }
  };

  const remove = (index: number) => void save(patches.filter((_, i) => i !== index));
  const found = (selector: string) => {
    try {
      return !!frame?.contentDocument?.querySelector(selector);
    } catch {
      return false;
    }
  };

  return (
    <div className="page-edit">
      <div className="page-edit-stage-wrap">
        <div className="page-edit-stage" ref={stage} style={{ aspectRatio: `${width} / ${height}` }}>
          <SnapshotFrame key={step.html_url} url={step.html_url as string} width={width} height={height} title={`Step ${step.number}: ${step.title}`} onFrame={setFrame} />
          {/* Clicks land here, not in the frame (it runs no script and takes no pointer events). From the
              keyboard, the arrow keys step through the page's elements and Enter edits the picked one's text. */}
          <div
            className="page-edit-layer"
            data-testid="page-edit-layer"
            role="application"
            tabIndex={frame ? 0 : undefined}
            aria-label="The page: arrow keys pick an element, Enter edits its text"
            onKeyDown={(e) => {
              if (draft !== null) return;
              const doc = frame?.contentDocument;
              if (!doc) return;
              if (e.key === 'Enter' && picked?.text != null) {
                e.preventDefault();
                setDraft(picked.text);
                return;
              }
              const step = e.key === 'ArrowDown' || e.key === 'ArrowRight' ? 1 : e.key === 'ArrowUp' || e.key === 'ArrowLeft' ? -1 : 0;
              if (step === 0) return;
              e.preventDefault();
              const all = pickableElements(doc, width, height);
              if (all.length === 0) return;
              const at = picked ? all.findIndex((el) => selectorFor(el) === picked.selector) : -1;
              const el = all[(at + step + all.length) % all.length];
              if (el) setPicked(pick(el));
            }}
            onMouseMove={(e) => {
              if (draft !== null) return;
              const el = elementAt(e);
              setHover(el ? boxOf(el, scale()) : null);
            }}
            onMouseLeave={() => setHover(null)}
            onClick={(e) => {
              if (draft !== null) return;
              const el = elementAt(e);
              const next = el ? pick(el) : null;
              setPicked(next);
              if (next?.text !== null && next?.text !== undefined) setDraft(next.text);
            }}
          />
          {hover && draft === null ? <div className="page-edit-hover" style={px(hover)} /> : null}
          {picked ? <div className="page-edit-picked" style={px(picked.box)} /> : null}
          {picked && draft !== null ? (
            <textarea
              className="page-edit-text"
              aria-label="The element's text"
              // biome-ignore lint/a11y/noAutofocus: the click that opened it asked to type here
              autoFocus
              style={{ left: picked.box.left, top: picked.box.top, width: Math.max(picked.box.width, 160), minHeight: Math.max(picked.box.height, 32) }}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey) {
                  e.preventDefault();
                  saveText();
                } else if (e.key === 'Escape') {
                  e.preventDefault();
                  setDraft(null);
                }
              }}
            />
          ) : null}
        </div>
      </div>
      <aside className="page-edit-panel" aria-label="Edit page">
        <div className="page-edit-head">
          <strong>Edit page</strong>
          <Button size="sm" onClick={onClose}>
            Done
          </Button>
        </div>
        <p className="page-edit-hint">
          Click an element of the page. Text is edited in place (Enter saves, Esc cancels); any element can be hidden, an image replaced. Viewers see the
          page as it shows here once you publish.
        </p>
        {picked ? (
          <fieldset className="page-edit-tools" aria-label={`Picked: ${picked.label}`}>
            <div className="page-edit-picked-label">{picked.label}</div>
            {picked.text !== null ? (
              draft === null ? (
                <Button size="sm" onClick={() => setDraft(picked.text)}>
                  Edit text
                </Button>
              ) : (
                <>
                  <Button size="sm" variant="primary" onClick={saveText}>
                    Save text
                  </Button>
                  <Button size="sm" onClick={() => setDraft(null)}>
                    Cancel
                  </Button>
                </>
              )
            ) : null}
            <Button size="sm" onClick={() => void save(withPatch(patches, { selector: picked.selector, op: 'hide' }))}>
              Hide element
            </Button>
            {picked.image ? (
              <Button size="sm" loading={uploading} onClick={() => upload.current?.click()}>
                Replace image
              </Button>
            ) : null}
            <input ref={upload} type="file" accept="image/png,image/jpeg,image/webp" hidden aria-label="New image" onChange={(e) => void replaceImage(e)} />
          </fieldset>
        ) : null}
        <h3 className="page-edit-list-title">Edits on this page ({patches.length})</h3>
        {patches.length === 0 ? (
          <p className="page-edit-hint">None yet.</p>
        ) : (
          <ul className="page-edit-list">
            {patches.map((patch, i) => (
              <li key={`${patch.selector}:${patch.op}`}>
                <span className="page-edit-what">{describePatch(patch)}</span>
                <code className="page-edit-selector" title={patch.selector}>
                  {patch.selector}
                </code>
                {frame && !found(patch.selector) ? <span className="page-edit-missing">not on this page</span> : null}
                <Button size="sm" variant="ghost" aria-label={`Remove: ${describePatch(patch)}`} onClick={() => remove(i)}>
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
      </aside>
    </div>
  );
}
