/**
 * `raw axios`: axios used the way its users usually do, with keep-alive agents added.
 *
 * @module
 */
import http from 'node:http';
import https from 'node:https';
import { libraryLikeHeaders, type Contender } from '../contender.js';

/**
 * `axios.create({ baseURL, httpAgent, httpsAgent, headers, responseType: 'json' })` and
 * `(await api.get(path)).data` (POST: `api.post(path, object)`): axios's defaults otherwise (follow-redirects, decompression,
 * status check, its JSON transform of the text body). `responseType: 'json'` is axios's default,
 * spelled out.
 */
export const rawAxios: Contender = {
  name: 'raw axios',
  description:
    "axios.create({ baseURL, httpAgent/httpsAgent keepAlive, same headers, responseType: 'json' }), (await api.get(path)).data / (await api.post(path, object)).data; axios defaults otherwise (redirects followed, decompress)",
  async open(origin) {
    const { default: axios } = await import('axios');
    const httpAgent = new http.Agent({ keepAlive: true });
    const httpsAgent = new https.Agent({ keepAlive: true });
    const api = axios.create({ baseURL: origin, httpAgent, httpsAgent, headers: libraryLikeHeaders('axios'), responseType: 'json' });
    return {
      getJson: async (path) => (await api.get<unknown>(path)).data,
      // axios serialises a plain object as JSON and sets Content-Type itself
      postJson: async (path, body) => (await api.post<unknown>(path, body)).data,
      close: () => {
        httpAgent.destroy();
        httpsAgent.destroy();
        return Promise.resolve();
      },
    };
  },
};
