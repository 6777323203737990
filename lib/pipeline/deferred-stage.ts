import type { WireRequest, WireResponse } from '../model/backend.js';
import { loadOnce } from '../core/load-once.js';
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
