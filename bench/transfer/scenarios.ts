/**
 * The transfer scenarios: (c) a large download to a file and (d) a large multipart upload of a
 * file read from a path. Each checks what arrived (file size and pattern, or the server's byte
 * count), so no contender can win by skipping work.
 *
 * @module
 */
import { rm } from 'node:fs/promises';
import { UPLOAD_PART, type TransferSession } from './contender.js';
import { checkPatternFile } from './pattern.js';
import { formatSize } from './size.js';

/** The files one transfer process works with. */
export interface TransferFiles {
  /** Path of a pattern file of exactly `size` bytes (the upload sources, made by the runner). */
  source(size: number): string;
  /** Where a download goes; removed after each check. */
  readonly target: string;
}

/** One transfer workload. */
export interface TransferScenario {
  readonly id: 'c' | 'd';
  /** Title for the report, with the size measured. */
  title(size: number): string;
  /** The server route it hits, as counted by the server (`"GET /bytes"`). */
  readonly route: string;
  /** One transfer of `size` bytes; resolves to what {@link verify} checks. */
  run(session: TransferSession, size: number, files: TransferFiles): Promise<unknown>;
  /** Checks the result of {@link run} (untimed) and removes what it wrote; returns what is wrong, if anything. */
  verify(result: unknown, size: number, files: TransferFiles): Promise<string | undefined>;
}

/** (c) `GET /bytes?n=size` into a file. */
export const DOWNLOAD_TO_FILE: TransferScenario = {
  id: 'c',
  title: (size) => `download ${formatSize(size)} to a file`,
  route: 'GET /bytes',
  run: (session, size, files) => session.download(size, files.target),
  async verify(_result, size, files) {
    try {
      return await checkPatternFile(files.target, size);
    } finally {
      await rm(files.target, { force: true });
    }
  },
};

/** (d) `POST /upload`, one multipart file part read from a path. */
export const UPLOAD_FROM_PATH: TransferScenario = {
  id: 'd',
  title: (size) => `multipart upload of a ${formatSize(size)} file from a path`,
  route: 'POST /upload',
  run: (session, size, files) => session.upload(files.source(size), size),
  verify(result, size) {
    const { bytes, fileName } = (result ?? {}) as { bytes?: unknown; fileName?: unknown };
    const ok = bytes === size && fileName === UPLOAD_PART.fileName;
    return Promise.resolve(ok ? undefined : `the server counted ${JSON.stringify(result)}, expected ${size} bytes of '${UPLOAD_PART.fileName}'`);
  },
};

/** Transfer scenarios run by `npm run bench`. */
export const TRANSFER_SCENARIOS: readonly TransferScenario[] = [DOWNLOAD_TO_FILE, UPLOAD_FROM_PATH];
