import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, describe, expect, it } from 'vitest';
import { type ArchiveEntry, ArchiveError, type BackupManifest, bufferEntry, FORMAT, MANIFEST_MAX_BYTES, readArchive, writeArchive } from '../src/backup/archive';
import { readWholeArchive } from './helpers/backup-archive';

const MANIFEST: Omit<BackupManifest, 'files'> = {
  format: FORMAT,
  format_version: 1,
  app_version: '0.0.0-test',
  created_at: '2026-11-30T00:00:00.000Z',
  migrations: { applied: 1, latest: '0000_test' },
  tables: { 'public.demos': 1 },
  secret_key: { source: 'none', fingerprint: null },
};

/** A streamed entry of `chunks` (as a blob or the database's tar is written), announcing `bytes`. */
function streamEntry(name: string, chunks: Buffer[], bytes = chunks.reduce((n, c) => n + c.length, 0)): ArchiveEntry {
  const whole = Buffer.concat(chunks);
  return {
    ...bufferEntry(name, whole),
    bytes,
    open: async () =>
      (async function* () {
        for (const chunk of chunks) yield chunk;
      })(),
  };
}

/** A gzipped tar of exactly these entries, in this order (a foreign or hand-made archive). */
async function rawArchive(entries: Array<{ name: string; data: Buffer }>) {
  const pack = tar.pack();
  for (const { name, data } of entries) pack.entry({ name }, data);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(Buffer.from(chunk as Buffer));
  return gzipSync(Buffer.concat(chunks));
}

describe('backup archive (streamed tar.gz with a checksummed manifest first)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'demoshare-archive-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string) => path.join(dir, name);
  // Larger than the streams' buffers, so that back-pressure is exercised on the way in and out.
  const big = Buffer.alloc(3 * 1024 * 1024 + 17, 7);

  it('writes the manifest first and each entry from its source; a reader gets every byte back, and tar lists it', async () => {
    const entries = [bufferEntry('pgdata.tar', Buffer.from('the database')), streamEntry('blobs/sha256/abc', [big.subarray(0, 1000), big.subarray(1000)])];
    const bytes = await writeArchive(file('ok.tgz'), MANIFEST, entries);
    expect(bytes).toBe(readFileSync(file('ok.tgz')).length);

    const { manifest, files } = await readWholeArchive(file('ok.tgz'));
    expect(manifest).toMatchObject(MANIFEST);
    expect(manifest.files).toEqual(entries.map(({ name, bytes, sha256 }) => ({ name, bytes, sha256 })));
    expect(files.get('pgdata.tar')!.toString()).toBe('the database');
    expect(files.get('blobs/sha256/abc')!.equals(big)).toBe(true);
    // A standard tar reads it: the operator can list and unpack an archive without Demoshare.
    expect(execFileSync('tar', ['-tzf', file('ok.tgz')]).toString().trim().split('\n')).toEqual(['manifest.json', 'pgdata.tar', 'blobs/sha256/abc']);
  });

  it('refuses an archive whose manifest is not first, a listed file that is absent, and one whose bytes are not its checksum', async () => {
    const manifest = (files: BackupManifest['files']) => Buffer.from(JSON.stringify({ ...MANIFEST, files }));
    const data = Buffer.from('the database');
    const listed = { name: 'pgdata.tar', bytes: data.length, sha256: bufferEntry('x', data).sha256 };

    writeFileSync(file('late.tgz'), await rawArchive([{ name: 'pgdata.tar', data }, { name: 'manifest.json', data: manifest([listed]) }]));
    await expect(readArchive(file('late.tgz'))).rejects.toThrow(new ArchiveError('no manifest.json first: not a Demoshare backup'));

    writeFileSync(file('absent.tgz'), await rawArchive([{ name: 'manifest.json', data: manifest([listed]) }]));
    await expect(readArchive(file('absent.tgz'))).rejects.toThrow('"pgdata.tar" is listed in the manifest but missing');

    writeFileSync(file('other.tgz'), await rawArchive([{ name: 'manifest.json', data: manifest([listed]) }, { name: 'pgdata.tar', data: Buffer.from('the databasE') }]));
    await expect(readArchive(file('other.tgz'))).rejects.toThrow('"pgdata.tar" does not match its checksum');

    writeFileSync(file('foreign.tgz'), await rawArchive([{ name: 'manifest.json', data: Buffer.from('{"format":"something-else"}') }]));
    await expect(readArchive(file('foreign.tgz'))).rejects.toThrow('not a Demoshare backup');
  });

  it('refuses a manifest announced larger than MANIFEST_MAX_BYTES from its header, before reading it', async () => {
    // A header announcing one byte over the limit, then only a little of it: the reader must stop at the header.
    const pack = tar.pack();
    const chunks: Buffer[] = [];
    pack.on('data', (chunk) => void chunks.push(Buffer.from(chunk as Buffer)));
    pack.entry({ name: 'manifest.json', size: MANIFEST_MAX_BYTES + 1 }).write(Buffer.alloc(4096, 0x20));
    await new Promise((resolve) => setImmediate(resolve));
    pack.destroy();
    writeFileSync(file('huge-manifest.tgz'), gzipSync(Buffer.concat(chunks)));
    await expect(readArchive(file('huge-manifest.tgz'))).rejects.toThrow(new ArchiveError('manifest.json is larger than 64 MB: not a Demoshare backup'));
  });

  it('refuses a truncated or corrupted gzip, and a file that is not one, without hanging', async () => {
    await writeArchive(file('whole.tgz'), MANIFEST, [streamEntry('pgdata.tar', [big])]);
    const whole = readFileSync(file('whole.tgz'));
    writeFileSync(file('cut.tgz'), whole.subarray(0, Math.floor(whole.length / 2)));
    const flipped = Buffer.from(whole);
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
    writeFileSync(file('flipped.tgz'), flipped);
    writeFileSync(file('text.tgz'), 'hello');
    for (const name of ['cut.tgz', 'flipped.tgz', 'text.tgz']) {
      await expect(readArchive(file(name)), name).rejects.toBeInstanceOf(ArchiveError);
    }
    // Every entry intact and only gzip's own CRC wrong (as when a flipped byte lands in the tar's padding,
    // which no entry's checksum covers): found at the very end, after the last entry was read.
    const crc = Buffer.from(whole);
    crc[crc.length - 8]! ^= 0xff;
    writeFileSync(file('crc.tgz'), crc);
    await expect(readArchive(file('crc.tgz'))).rejects.toThrow(/not a complete Demoshare backup \(gzip\): incorrect data check/);
  });

  it('stops at the manifest when its check throws, passing that error on as it is', async () => {
    await writeArchive(file('checked.tgz'), MANIFEST, [streamEntry('pgdata.tar', [big])]);
    const refusal = new Error('made by a newer version');
    const sunk: string[] = [];
    const read = readArchive(
      file('checked.tgz'),
      (name) => {
        sunk.push(name);
        return undefined;
      },
      (manifest) => {
        expect(manifest.files.map((f) => f.name)).toEqual(['pgdata.tar']);
        throw refusal;
      },
    );
    await expect(read).rejects.toBe(refusal);
    expect(sunk).toEqual([]);
  });

  it('passes a sink’s failure on as its own error (a full disk while extracting), not as a damaged archive', async () => {
    await writeArchive(file('sunk.tgz'), MANIFEST, [streamEntry('pgdata.tar', [big])]);
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const failing = () =>
      new Writable({
        write(_chunk, _encoding, done) {
          done(full);
        },
      });
    const failed = await readArchive(file('sunk.tgz'), failing).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBe(full);
    expect(failed).not.toBeInstanceOf(ArchiveError);
    // The same sink on a damaged archive: the archive's fault is still the archive's.
    const cut = readFileSync(file('sunk.tgz'));
    writeFileSync(file('sunk-cut.tgz'), cut.subarray(0, Math.floor(cut.length / 2)));
    await expect(readArchive(file('sunk-cut.tgz'), () => new Writable({ write: (_c, _e, done) => done() }))).rejects.toBeInstanceOf(ArchiveError);
  });

  it('fails the write, without hanging, when an entry’s source fails midway, gives fewer bytes than it announced, or the output fails', async () => {
    const failing: ArchiveEntry = {
      ...bufferEntry('blobs/sha256/def', big),
      open: async () =>
        (async function* () {
          yield big.subarray(0, 1000);
          throw new Error('disk read failed');
        })(),
    };
    await expect(writeArchive(file('failing.tgz'), MANIFEST, [failing])).rejects.toThrow('disk read failed');
    const short = streamEntry('pgdata.tar', [Buffer.from('short')], 100);
    await expect(writeArchive(file('short.tgz'), MANIFEST, [short])).rejects.toThrow();
    // The output failing ends the write too (here a folder that does not exist; a full disk alike).
    await expect(writeArchive(path.join(dir, 'absent', 'x.tgz'), MANIFEST, [streamEntry('pgdata.tar', [big, big])])).rejects.toThrow(/ENOENT/);
  });
});
