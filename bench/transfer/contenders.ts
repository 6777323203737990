/**
 * The transfer contenders, in pairs as in scenario (a): the library on a backend next to the raw
 * client that backend uses. The fetch backend runs on undici's fetch; its pair is undici's
 * lower-level `request()`, the leanest way to stream with undici, and `raw undici fetch` comes
 * along for information (what fetch itself costs).
 *
 * @module
 */
import type { TransferContender } from './contender.js';
import { libraryTransfer } from './contenders/library.js';
import { rawAxiosTransfer } from './contenders/raw-axios.js';
import { rawGotTransfer } from './contenders/raw-got.js';
import { rawNodeHttpTransfer } from './contenders/raw-node-http.js';
import { rawUndiciFetchTransfer } from './contenders/raw-undici-fetch.js';
import { rawUndiciTransfer } from './contenders/raw-undici.js';

/** Everything measured in (c) and (d), in this order in round 1 (later rounds rotate it). */
export const TRANSFER_CONTENDERS: readonly TransferContender[] = [
  libraryTransfer('native', rawNodeHttpTransfer.name),
  rawNodeHttpTransfer,
  libraryTransfer('axios', rawAxiosTransfer.name),
  rawAxiosTransfer,
  libraryTransfer('got', rawGotTransfer.name),
  rawGotTransfer,
  libraryTransfer('fetch', rawUndiciTransfer.name),
  rawUndiciTransfer,
  rawUndiciFetchTransfer,
];
