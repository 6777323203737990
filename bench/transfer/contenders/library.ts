/**
 * The library (compiled, from `dist/`) in the transfer scenarios, once per backend, written the way a user writes it:
 * `Download.toFile` for the download, `multipart` with a `{ path }` part for the upload.
 *
 * @module
 */
import type { BackendChoice } from '../../../lib/index.js';
import { importDownload, importLibrary } from '../../library.js';
import { DOWNLOAD_PATH, UPLOAD_PART, UPLOAD_PATH, type TransferContender } from '../contender.js';

type BackendName = Extract<BackendChoice, string>;

/** `httpbuilder-ts (<backend>)`, compared with `comparedWith` (the raw client the backend uses). */
export function libraryTransfer(backend: BackendName, comparedWith: string): TransferContender {
  return {
    name: `httpbuilder-ts (${backend})`,
    description:
      `${backend === 'native' ? "default 'native' backend" : `c.client.backend = '${backend}'`}; ` +
      "download: http.get((c) => { path, query n; Download.toFile(c, file) }); upload: http.post((c) => { c.request.body = multipart((mp) => mp.part('file', 'big.bin', 'application/octet-stream', { path })) })",
    comparedWith,
    async open(origin) {
      const [{ HttpBuilder, multipart }, { Download }] = await Promise.all([importLibrary(), importDownload()]);
      const client = HttpBuilder.configure((c) => {
        c.request.uri = origin;
        if (backend !== 'native') c.client.backend = backend;
      });
      return {
        download: async (size, file) => {
          await client.get((c) => {
            c.request.uri.path = DOWNLOAD_PATH;
            c.request.uri.query = { n: String(size) };
            Download.toFile(c, file);
          });
        },
        upload: (source) =>
          client.post((c) => {
            c.request.uri.path = UPLOAD_PATH;
            c.request.contentType = 'multipart/form-data';
            c.request.body = multipart((mp) => mp.part(UPLOAD_PART.name, UPLOAD_PART.fileName, UPLOAD_PART.contentType, { path: source }));
          }),
        close: () => client.close(),
      };
    },
  };
}
