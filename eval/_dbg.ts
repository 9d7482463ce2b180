import { readFileSync } from 'node:fs';
import { parseDocument } from 'htmlparser2';
import { extractFacts } from '../src/generation/html-elements';
const f = extractFacts(parseDocument(readFileSync(process.argv[2]!, 'utf8')), 'http://127.0.0.1/services/');
for (const e of f.elements.filter((e) => e.kind !== 'link' && e.kind !== 'input')) console.log(e.kind, e.detail, JSON.stringify(e.text).slice(0, 60), e.selector, (e.items ?? []).slice(0, 4).join('|'));
