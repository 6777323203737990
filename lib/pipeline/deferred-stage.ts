import type { WireRequest, WireResponse } from '../model/backend.js';
import { loadOnce } from '../core/load-once.js';
import { useDeferredContent } from '../content/lazy-codecs.js';
import { useConversion } from '../result/converted.js';
import type { Send, WireCall } from './plan.js';

/**
 * The work of the optional stages (stage-work.ts), loaded by the first call that has a hook, a
 * logger, a cookie jar or telemetry (or a diagnostics subscriber): an application with none of
 * them never loads it, and a browser bundle keeps it in a chunk of its own.
 */
export const stageWork = loadOnce(() => import('./stage-work.js'));

/**
 * A stage's work for this exchange (its stage has checked the call needs it: a call that does
 * not pays nothing): at once once loaded, after loading it for the first such call.
 */
export function runStageWork(
  work: 'hooked' | 'logged' | 'exchangeCookies' | 'observedAttempt',
  next: Send,
  wire: WireRequest,
  call: WireCall,
): Promise<WireResponse> {
  const loaded = stageWork.loaded;
  return loaded ? loaded[work](next, wire, call) : stageWork().then((module) => module[work](next, wire, call));
}

// The XML, CSV and multipart codecs and the conversion to a result type, loaded at their first
// use through entries of this layer, which import the pipeline's shared-chunk list: so that the
// modules every lazily loaded one shares with the client load as one chunk, not one per layer.
useDeferredContent(loadOnce(() => import('./deferred-content-entry.js')));
useConversion(loadOnce(() => import('./conversion-entry.js')));
