/**
 * The server side of the upload scenario: reads a `multipart/form-data` request as it streams
 * in, holding nothing but the part's header and the last few hundred bytes, and counts the
 * bytes of its one file part. Shared by the benchmark server and `spec/memory`.
 *
 * @module
 */
import type http from 'node:http';

/** What the server saw of one upload (sent back to the client as JSON). */
export interface UploadCount {
  /** Bytes of the file part's content, framing excluded. */
  readonly bytes: number;
  /** The part's `filename` parameter, as sent. */
  readonly fileName: string | undefined;
  /** The whole request body, framing included. */
  readonly total: number;
}

const HEAD_LIMIT = 16 * 1024;
const TAIL = 512;

/** Counts the file part of a single-part multipart body in `req`; rejects unless the body is one well-formed part. */
export function countMultipartUpload(req: http.IncomingMessage): Promise<UploadCount> {
  const boundary = /boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(req.headers['content-type'] ?? '');
  if (!boundary) return Promise.reject(new Error(`not multipart with a boundary: '${req.headers['content-type'] ?? ''}'`));
  const delimiter = `--${boundary[1] ?? boundary[2]}`;
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    let headLength = -1; // bytes up to the part's content, once its header block ended
    let total = 0;
    let tail = Buffer.alloc(0);
    req.on('data', (chunk: Buffer) => {
      total += chunk.byteLength;
      if (headLength < 0) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end >= 0) headLength = end + 4;
        else if (head.byteLength > HEAD_LIMIT) req.destroy(new Error('no part header within 16 KiB'));
      }
      // the closing delimiter is in the last bytes: keep a copy of those only
      tail = chunk.byteLength >= TAIL ? Buffer.from(chunk.subarray(-TAIL)) : Buffer.concat([tail, chunk]).subarray(-TAIL);
    });
    req.once('error', reject);
    req.once('end', () => {
      const text = head.subarray(0, Math.max(0, headLength)).toString('latin1');
      const closing = tail.lastIndexOf(`\r\n${delimiter}--`);
      if (headLength < 0 || !text.startsWith(`${delimiter}\r\n`) || closing < 0)
        return reject(new Error(`not one multipart part framed by '${delimiter}' (${total} bytes)`));
      const bytes = total - headLength - (tail.byteLength - closing);
      resolve({ bytes, fileName: /filename="([^"]*)"/.exec(text)?.[1], total });
    });
  });
}
