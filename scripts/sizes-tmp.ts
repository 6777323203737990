import { bundleForBrowser, kb } from './package-check/browser-bundle.js';
import { writeFileSync } from 'node:fs';
writeFileSync('/tmp/app.js', `import { HttpBuilder } from 'httpbuilder-ts';
const http = HttpBuilder.configure((c) => { c.request.uri = 'https://api.example.com'; });
export const getUser = (id) => http.get((c) => { c.request.uri.path = '/users/' + id; });
export const createUser = (name) => http.post((c) => { c.request.uri.path = '/users'; c.request.contentType = 'application/json'; c.request.body = { name }; });
`);
const b = await bundleForBrowser('/tmp/app.js', { cwd: '/work/main', aliases: { 'httpbuilder-ts': '/work/main/lib/browser.ts' }, nodePaths: ['/work/main/node_modules'] });
console.log('initial', kb(b.initial.bytes), kb(b.initial.gzip), 'chunks', b.chunks.filter(c=>c.initial).length);
const rows: [string, number][] = [];
for (const c of b.chunks.filter((c) => c.initial)) { console.log('chunk', c.path, c.bytes, c.gzip); for (const [i, v] of Object.entries(b.metafile.outputs[c.path].inputs)) rows.push([i, v.bytesInOutput]); }
rows.sort((a, b) => b[1] - a[1]);
for (const [k, v] of rows) console.log(String(v).padStart(7), k);
