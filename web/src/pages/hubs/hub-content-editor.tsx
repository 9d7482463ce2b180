// A hub's collections and their demos: add, rename, order, describe, cover, remove.
import { useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { demosApi } from '../../api/demos.api';
import { type HubDetail, type HubEntry, hubsApi } from '../../api/hubs.api';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { SelectField, TextField } from '../../components/field';
import { PlusIcon } from '../../components/icons';
import { useToast } from '../../components/toast';
import { useResource } from '../../lib/use-resource';

type Collection = HubDetail['collections'][number];

function EntryRow({ hub, entry, index, count, canEdit, coverUrl, run }: { hub: HubDetail; entry: HubEntry; index: number; count: number; canEdit: boolean; coverUrl: string | null; run(work: () => Promise<unknown>, done?: string): Promise<void> }) {
  const [description, setDescription] = useState(entry.description);
  const file = useRef<HTMLInputElement>(null);
  const title = entry.title ?? entry.demo_title;
  return (
    <li className="hub-entry">
      <div className="hub-entry-cover" aria-hidden="true">
        <span>{title.slice(0, 1)}</span>
        {coverUrl ? <img src={coverUrl} alt="" onError={(e) => e.currentTarget.remove()} /> : null}
      </div>
      <div className="hub-entry-main">
        <div className="row">
          <strong>{title}</strong>
          {entry.available ? null : <Badge tone="warning">Not published: hidden</Badge>}
        </div>
        <TextField
          label="Card text"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          onBlur={() => (description !== entry.description ? run(() => hubsApi.updateEntry(hub.id, entry.id, { description }), 'Card text saved') : undefined)}
          disabled={!canEdit}
          maxLength={300}
        />
        {canEdit ? (
          <div className="row hub-entry-actions">
            <Button size="sm" disabled={index === 0} onClick={() => run(() => hubsApi.updateEntry(hub.id, entry.id, { position: index - 1 }))} aria-label={`Move ${title} up`}>
              ↑
            </Button>
            <Button size="sm" disabled={index === count - 1} onClick={() => run(() => hubsApi.updateEntry(hub.id, entry.id, { position: index + 1 }))} aria-label={`Move ${title} down`}>
              ↓
            </Button>
            <Button size="sm" onClick={() => file.current?.click()}>
              {entry.has_cover ? 'Change cover' : 'Upload cover'}
            </Button>
            <input
              ref={file}
              type="file"
              accept="image/png,image/jpeg,image/webp"
              hidden
              onChange={(e) => {
                const chosen = e.target.files?.[0];
                if (chosen) void run(() => hubsApi.setCover(hub.id, entry.id, chosen), 'Cover uploaded');
                e.target.value = '';
              }}
            />
            {entry.has_cover ? (
              <Button size="sm" variant="ghost" onClick={() => run(() => hubsApi.removeCover(hub.id, entry.id), 'Cover removed')}>
                Remove cover
              </Button>
            ) : null}
            <Button size="sm" variant="ghost" className="btn-danger-text" onClick={() => run(() => hubsApi.removeEntry(hub.id, entry.id), 'Demo removed from the hub')}>
              Remove
            </Button>
          </div>
        ) : null}
      </div>
    </li>
  );
}

function AddDemo({ hub, collection, run }: { hub: HubDetail; collection: Collection; run(work: () => Promise<unknown>, done?: string): Promise<void> }) {
  const demos = useResource(() => demosApi.list({ page: 1, per_page: 100 }));
  const [demoId, setDemoId] = useState('');
  const onHub = new Set(collection.entries.map((e) => e.demo_id));
  const choices = (demos.data?.rows ?? []).filter((d) => !onHub.has(d.id) && d.status !== 'archived');
  return (
    <div className="row hub-add">
      <SelectField label={`Add a demo to ${collection.name}`} value={demoId} onChange={(e) => setDemoId(e.target.value)}>
        <option value="">Choose a demo…</option>
        {choices.map((d) => (
          <option key={d.id} value={d.id}>
            {d.title}
            {d.status === 'published' ? '' : ' (not published)'}
          </option>
        ))}
      </SelectField>
      <Button
        icon={<PlusIcon />}
        disabled={!demoId}
        onClick={() => run(() => hubsApi.addEntry(hub.id, { demo_id: demoId, collection_id: collection.id }), 'Demo added').then(() => setDemoId(''))}
      >
        Add
      </Button>
    </div>
  );
}

export function HubContentEditor({ hub, canEdit, onChanged, coverOf }: { hub: HubDetail; canEdit: boolean; onChanged(): Promise<void>; coverOf(entry: HubEntry): string | null }) {
  const notify = useToast();
  const [name, setName] = useState('');
  async function run(work: () => Promise<unknown>, done?: string) {
    try {
      await work();
      if (done) notify(done);
    } catch (err) {
      notify(err instanceof ApiError ? err.message : 'That did not work.', 'danger');
    }
    await onChanged();
  }
  return (
    <div className="stack">
      {hub.collections.length === 0 ? <p className="muted">Start with a collection (a tab of the hub, such as “Getting started”), then add demos to it.</p> : null}
      {hub.collections.map((c, i) => (
        <section key={c.id} className="hub-collection" aria-label={c.name}>
          <div className="row-between">
            <h3>{c.name}</h3>
            {canEdit ? (
              <span className="row">
                <Button size="sm" disabled={i === 0} onClick={() => run(() => hubsApi.updateCollection(hub.id, c.id, { position: i - 1 }))} aria-label={`Move ${c.name} up`}>
                  ↑
                </Button>
                <Button size="sm" disabled={i === hub.collections.length - 1} onClick={() => run(() => hubsApi.updateCollection(hub.id, c.id, { position: i + 1 }))} aria-label={`Move ${c.name} down`}>
                  ↓
                </Button>
                <Button size="sm" variant="ghost" className="btn-danger-text" onClick={() => run(() => hubsApi.removeCollection(hub.id, c.id), 'Collection removed')}>
                  Remove
                </Button>
              </span>
            ) : null}
          </div>
          <ul className="hub-entries">
            {c.entries.map((e, j) => (
              <EntryRow key={`${e.id}:${e.description}`} hub={hub} entry={e} index={j} count={c.entries.length} canEdit={canEdit} coverUrl={coverOf(e)} run={run} />
            ))}
          </ul>
          {canEdit ? <AddDemo hub={hub} collection={c} run={run} /> : null}
        </section>
      ))}
      {canEdit ? (
        <form
          className="row hub-add"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) void run(() => hubsApi.addCollection(hub.id, name.trim()), 'Collection added').then(() => setName(''));
          }}
        >
          <TextField label="New collection" placeholder="Getting started" value={name} onChange={(e) => setName(e.target.value)} maxLength={60} />
          <Button type="submit" icon={<PlusIcon />} disabled={!name.trim()}>
            Add collection
          </Button>
        </form>
      ) : null}
    </div>
  );
}
