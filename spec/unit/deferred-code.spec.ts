import { describe, expect, it } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadOnce } from '../../lib/core/load-once.js';
import { bundleForBrowser } from '../../scripts/package-check/browser-bundle.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a JSON application never runs: loaded at first use, so left out of what loads with it. */
const DEFERRED = [
  'lib/content/xml.ts',
  'lib/content/csv.ts',
  'lib/content/multipart-body.ts',
  'lib/pipeline/hooked-attempt.ts',
  'lib/pipeline/logged-exchange.ts',
  'lib/cookies/cookie-exchange.ts',
  'lib/pipeline/observed-attempt.ts',
  'lib/result/convert.ts',
];

/** What every application runs from its first request on (call-entry.ts): loaded then, so left out of what loads with it. */
const AT_FIRST_REQUEST = [
  'lib/pipeline/call.ts',
  'lib/pipeline/stages.ts',
  'lib/pipeline/client-setup.ts',
  'lib/config/settings.ts',
  'lib/config/execution-options.ts',
  'lib/pipeline/call-slots.ts',
  'lib/pipeline/origin-pacing.ts',
  'lib/content/encoders.ts',
];

describe('code loaded at first use', () => {
  it('leaves the XML, CSV and multipart codecs, the hooks, the log lines, the cookie jar, telemetry and the conversion out of what a JSON application loads', async () => {
    const work = await mkdtemp(join(tmpdir(), 'httpbuilder-deferred-'));
    try {
      const entry = join(work, 'app.js');
      await writeFile(
        entry,
        `import { HttpBuilder } from 'httpbuilder-ts';
const http = HttpBuilder.configure((c) => { c.request.uri = 'https://api.example.com'; });
export const createUser = (name) => http.post((c) => { c.request.uri.path = '/users'; c.request.contentType = 'application/json'; c.request.body = { name }; });`,
      );
      const bundle = await bundleForBrowser(entry, { cwd: ROOT, aliases: { 'httpbuilder-ts': join(ROOT, 'lib', 'browser.ts') } });
      const initial = bundle.chunks.filter((chunk) => chunk.initial).flatMap((chunk) => chunk.inputs);
      const later = bundle.chunks.filter((chunk) => !chunk.initial).flatMap((chunk) => chunk.inputs);
      expect(initial.filter((input) => DEFERRED.includes(input) || input.includes('node_modules/tough-cookie'))).toEqual([]);
      // still bundled, in a chunk of their own: the names above are the files that hold the code
      expect(DEFERRED.filter((file) => !later.includes(file))).toEqual([]);
      // the call's modules and the client's settings merge: at the first request
      expect(initial.filter((input) => AT_FIRST_REQUEST.includes(input))).toEqual([]);
      expect(AT_FIRST_REQUEST.filter((file) => !later.includes(file))).toEqual([]);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});

describe('loadOnce', () => {
  it('imports once for concurrent first uses, and holds the module once it is in', async () => {
    let imports = 0;
    const module = { name: 'm' };
    const lazy = loadOnce(() => Promise.resolve(module).finally(() => imports++));
    expect(lazy.loaded).toBeUndefined();
    const [first, second] = await Promise.all([lazy(), lazy()]);
    expect([first, second, lazy.loaded, imports]).toEqual([module, module, module, 1]);
    await lazy();
    expect(imports).toBe(1);
  });

  it('tries a failed import again at the next use (a chunk the network lost)', async () => {
    let attempts = 0;
    const lazy = loadOnce(() => (++attempts === 1 ? Promise.reject(new Error('chunk lost')) : Promise.resolve('m')));
    await expect(lazy()).rejects.toThrow('chunk lost');
    expect(lazy.loaded).toBeUndefined();
    await expect(lazy()).resolves.toBe('m');
    expect([lazy.loaded, attempts]).toEqual(['m', 2]);
  });
});
