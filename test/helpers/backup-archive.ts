import { Writable } from 'node:stream';
import { readArchive } from '../../src/backup/archive';

/** A whole backup archive in memory, checked as restore checks it: what a test inspects or tampers with. */
export async function readWholeArchive(file: string) {
  const files = new Map<string, Buffer>();
  const manifest = await readArchive(file, (name) => {
    const chunks: Buffer[] = [];
    return new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        files.set(name, Buffer.concat(chunks));
        done();
      },
    });
  });
  return { manifest, files };
}
