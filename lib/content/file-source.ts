import { ConfigError } from '../core/errors.js';

/** A file part's source opened for sending: its size (the part's `Content-Length`) and a way to read exactly those bytes. */
export interface OpenedFile {
  readonly size: number;
  /** The file's bytes, read when the body is sent (called at most once). */
  read(): AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

/** Opens the file a `{ path }` part names; `partName` is for error messages. */
export type FileOpener = (path: string | URL, partName: string) => Promise<OpenedFile>;

/**
 * What a runtime without a file system (a browser, a Worker) does with a `{ path }` part: refuse
 * it, naming the part and what to pass instead. Node registers the real opener (`node-files.ts`).
 */
export const openWithoutFileSystem: FileOpener = (path, partName) =>
  Promise.reject(
    new ConfigError(
      `multipart part '${partName}' is a file path ('${String(path)}'), but this runtime has no file system: pass a Blob or File, bytes or a stream instead`,
    ),
  );

let opener: FileOpener = openWithoutFileSystem;

/** @internal Plugs in how `{ path }` parts are opened (the node platform does, on import). */
export function useFileOpener(open: FileOpener): void {
  opener = open;
}

/** @internal Opens a `{ path }` part's file with the runtime's opener. */
export function openFile(path: string | URL, partName: string): Promise<OpenedFile> {
  return opener(path, partName);
}
