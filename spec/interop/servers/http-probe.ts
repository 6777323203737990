import * as http from 'node:http';

/** A GET on its own connection (no agent, `Connection: close`): resolves with the status, rejects on a socket error. */
export function probe(url: string, timeoutMs = 2000): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, headers: { connection: 'close' }, timeout: timeoutMs }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
      response.once('error', reject);
    });
    request.once('timeout', () => request.destroy(new Error(`no answer from ${url} within ${timeoutMs} ms`)));
    request.once('error', reject);
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
