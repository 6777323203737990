/**
 * `raw undici.request`: undici 7's own request API, the fastest client node has (information
 * only: no backend of the library uses it underneath).
 *
 * @module
 */
import { libraryLikeHeaders, type Contender } from '../contender.js';

const HEADERS = libraryLikeHeaders('undici');
const POST_HEADERS = { ...HEADERS, 'Content-Type': 'application/json' };

/** `request(origin + path, { headers, dispatcher: new Agent() })`, check the status, `await body.json()`. */
export const rawUndiciRequest: Contender = {
  name: 'raw undici.request',
  description: 'undici 7 request(origin + path, { headers, dispatcher: new undici.Agent() }) (POST: method, Content-Type, body JSON.stringify), check statusCode, await body.json() (information only)',
  async open(origin) {
    const { Agent, request } = await import('undici');
    const dispatcher = new Agent();
    const json = async (path: string, options: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string }) => {
      const res = await request(origin + path, { ...options, dispatcher });
      if (res.statusCode !== 200) {
        await res.body.dump();
        throw new Error(`undici.request: unexpected ${res.statusCode}`);
      }
      return res.body.json();
    };
    return {
      getJson: (path) => json(path, { method: 'GET', headers: HEADERS }),
      postJson: (path, body) => json(path, { method: 'POST', headers: POST_HEADERS, body: JSON.stringify(body) }),
      close: () => dispatcher.close(),
    };
  },
};
