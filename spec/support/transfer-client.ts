/**
 * The client side of `spec/memory/transfer-memory.spec.ts`, in a process of its own so that
 * nothing else (jest, the server, other tests) moves its RSS. Run as
 * `node --expose-gc --import tsx spec/support/transfer-client.ts '<job JSON>'` (a
 * {@link TransferClientJob}); prints one line of JSON, a {@link TransferClientResult}.
 *
 * It makes one unmeasured 1 MiB transfer first (so lazily loaded modules and the pooled
 * connection are in place), then takes the RSS baseline after a full GC and measures one
 * transfer of `size` bytes with the library, the way a user writes it.
 *
 * @module
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { measureTransfer, type MemoryGrowth } from '../../bench/measure.js';
import { checkPatternFile } from '../../bench/pattern.js';
import { Download } from '../../lib/download.js';
import { Stream } from '../../lib/stream.js';
import { HttpBuilder, multipart, ResponseTooLargeError, type BackendChoice } from '../../lib/index.js';

/** What the test asks for. */
export interface TransferClientJob {
  /**
   * `http://127.0.0.1:PORT`: `GET /bytes?n=N` streams N pattern bytes, `GET /lines?n=N` N bytes
   * of 128-byte lines, `GET /one-line?n=N` N bytes without a line end, `POST /upload` answers
   * `{ bytes }` for the file part.
   */
  readonly origin: string;
  readonly backend: Extract<BackendChoice, string>;
  /**
   * `lines` reads `/lines` with `Stream.lines`; `one-line` reads `/one-line` (one line of `size`
   * bytes, no line end) with `Stream.lines`, which must refuse it; `tiny-line` reads `/tiny-line`
   * (one line of `size` bytes sent 8 bytes per HTTP chunk, no line end) with `Stream.lines`
   */
  readonly direction: 'download' | 'upload' | 'lines' | 'one-line' | 'tiny-line';
  readonly size: number;
  /** Downloads go here (removed afterwards); uploads read `source-<size>.bin` from here (1 MiB and `size`). */
  readonly dir: string;
}

/** What the process prints. */
export interface TransferClientResult {
  /** Bytes that arrived: the downloaded file's size, the server's count of the uploaded part, or the lines' bytes (line ends counted). */
  readonly bytes: number;
  /** What is wrong with the downloaded file's content, if anything. */
  readonly problem?: string;
  readonly memory: MemoryGrowth;
}

const WARMUP = 2 ** 20;

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? 'null') as TransferClientJob;
  const http = HttpBuilder.configure((c) => {
    c.request.uri = job.origin;
    if (job.backend !== 'native') c.client.backend = job.backend;
  });
  const target = join(job.dir, `download-${process.pid}.bin`);
  const download = async (size: number): Promise<Omit<TransferClientResult, 'memory'>> => {
    await http.get((c) => {
      c.request.uri.path = '/bytes';
      c.request.uri.query = { n: String(size) };
      Download.toFile(c, target);
    });
    return { bytes: (await stat(target)).size };
  };
  const upload = async (size: number): Promise<Omit<TransferClientResult, 'memory'>> => {
    const answer = await http.post((c) => {
      c.request.uri.path = '/upload';
      c.request.body = multipart((mp) => mp.part('file', 'big.bin', 'application/octet-stream', { path: join(job.dir, `source-${size}.bin`) }));
    });
    return { bytes: (answer as { bytes: number }).bytes };
  };
  const lineStream = (path: string, size: number) =>
    http.get((c) => {
      c.request.uri.path = path;
      c.request.uri.query = { n: String(size) };
      return Stream.lines(c);
    });
  const lines = async (size: number): Promise<Omit<TransferClientResult, 'memory'>> => {
    const stream = await lineStream('/lines', size);
    let bytes = 0;
    let misshapen = 0;
    for await (const line of stream) {
      bytes += line.length + 1;
      if (line.length !== 127) misshapen++;
    }
    return { bytes, problem: misshapen === 0 ? undefined : `${misshapen} lines are not 127 characters long` };
  };
  const oneLine = async (size: number): Promise<Omit<TransferClientResult, 'memory'>> => {
    const stream = await lineStream('/one-line', size);
    let bytes = 0;
    try {
      for await (const line of stream) bytes += line.length;
    } catch (error) {
      return { bytes, problem: error instanceof ResponseTooLargeError ? undefined : `the stream failed with ${String(error)}` };
    }
    return { bytes, problem: 'the line was not refused' };
  };
  const tinyLine = async (size: number): Promise<Omit<TransferClientResult, 'memory'>> => {
    let bytes = 0;
    for await (const line of await lineStream('/tiny-line', size)) bytes += line.length;
    return { bytes };
  };
  const transfer = { download, upload, lines, 'one-line': oneLine, 'tiny-line': tinyLine }[job.direction];
  try {
    await transfer(WARMUP); // a 1 MiB line is read whole: what `one-line` measures is the refusal of a longer one
    const { value, measurement } = await measureTransfer(() => transfer(job.size));
    const problem = job.direction === 'download' ? await checkPatternFile(target, job.size) : value.problem;
    process.stdout.write(`${JSON.stringify({ ...value, problem, memory: measurement.memory } satisfies TransferClientResult)}\n`);
  } finally {
    await rm(target, { force: true });
    await http.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
